import { type Database, type Db, schema } from "@bytetoll/db";
import { and, desc, eq, gte, inArray, lte, or, sql } from "drizzle-orm";

const { dealDeposits, dealReservations, deals, orders, payouts, users } = schema;

export type DealRow = typeof deals.$inferSelect;
export type PayoutRow = typeof payouts.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
/** An open transaction of either driver. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Executor = Db | Tx;

/** A group buy's target in cents: target GB at the deal price. */
const targetCents = sql`round(${deals.targetGb} * ${deals.priceUsdPerGb} * 100)`;

/** SQL for deals, their stock, deposits and payouts; no business rules here. */
export function createDealsRepository(database: Database) {
  const { db } = database;
  return {
    transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** A deal whose start has passed is live from its first moment. */
    async insert(values: {
      dealType: string;
      title: string;
      description: string;
      price: string;
      startTime: Date;
      endTime: Date;
      targetGb: number;
    }): Promise<DealRow> {
      const [row] = await db
        .insert(deals)
        .values({
          dealType: values.dealType,
          title: values.title,
          description: values.description,
          priceUsdPerGb: values.price,
          startTime: values.startTime,
          endTime: values.endTime,
          targetGb: values.targetGb,
          status: sql`CASE WHEN ${values.startTime.toISOString()}::timestamptz <= now() THEN 'live' ELSE 'pending' END`,
        })
        .returning();
      if (!row) throw new Error("deal insert returned nothing");
      return row;
    },

    async find(id: number, executor: Executor = db): Promise<DealRow | undefined> {
      const [row] = await executor.select().from(deals).where(eq(deals.id, id));
      return row;
    },

    /** Locks the deal until the transaction ends: every change of its stock or money queues here. */
    async lock(tx: Tx, id: number): Promise<DealRow | undefined> {
      const [row] = await tx.select().from(deals).where(eq(deals.id, id)).for("update");
      return row;
    },

    /** Live and pending deals, and those that ended in the last `endedDays`: expired ones by their
     * end, activated and cancelled ones by when that happened. */
    async listPublic(endedDays: number): Promise<DealRow[]> {
      const since = sql`now() - make_interval(days => ${endedDays})`;
      return db
        .select()
        .from(deals)
        .where(
          or(
            inArray(deals.status, ["pending", "live"]),
            and(eq(deals.status, "expired"), gte(deals.endTime, since)),
            and(inArray(deals.status, ["activated", "cancelled"]), gte(deals.updatedAt, since)),
          ),
        )
        .orderBy(desc(deals.startTime), desc(deals.id))
        .limit(100);
    },

    async listAll(limit: number): Promise<DealRow[]> {
      return db.select().from(deals).orderBy(desc(deals.id)).limit(limit);
    },

    /** Takes `gb` of a live flash sale's stock, only if that much is left (never oversold). */
    async reserveStock(tx: Tx, dealId: number, gb: number): Promise<DealRow | undefined> {
      const [row] = await tx
        .update(deals)
        .set({ reservedGb: sql`${deals.reservedGb} + ${gb}`, updatedAt: sql`now()` })
        .where(
          and(
            eq(deals.id, dealId),
            eq(deals.dealType, "flash_sale"),
            eq(deals.status, "live"),
            sql`${deals.endTime} > now()`,
            sql`${deals.reservedGb} + ${gb} <= ${deals.targetGb}`,
          ),
        )
        .returning();
      return row;
    },

    async insertReservation(tx: Tx, orderId: string, dealId: number, gb: number): Promise<void> {
      await tx.insert(dealReservations).values({ orderId, dealId, gb });
    },

    /** Gives back the stock of flash-sale orders that ended unpaid, each once (whichever instance
     * flips `released` first), and returns the deals whose stock changed. */
    async releaseEndedReservations(): Promise<DealRow[]> {
      const result = await db.execute<{ id: number }>(sql`
        WITH freed AS (
          UPDATE deal_reservations r SET released = true
            FROM orders o
           WHERE o.id = r.order_id AND r.released = false
             AND o.payment_status IN ('expired', 'failed') AND o.credited_bytes = 0
          RETURNING r.deal_id, r.gb
        ), per_deal AS (SELECT deal_id, sum(gb) AS gb FROM freed GROUP BY deal_id)
        UPDATE deals d SET reserved_gb = d.reserved_gb - per_deal.gb, updated_at = now()
          FROM per_deal WHERE d.id = per_deal.deal_id
        RETURNING d.id`);
      const ids = result.rows.map((row) => Number(row.id));
      return ids.length > 0 ? db.select().from(deals).where(inArray(deals.id, ids)) : [];
    },

    /** A payment arrived for an order whose stock was given back: it is sold after all. */
    async reclaimReservation(tx: Tx, orderId: string): Promise<number | null> {
      const result = await tx.execute<{ id: number }>(sql`
        WITH back AS (
          UPDATE deal_reservations SET released = false
           WHERE order_id = ${orderId} AND released = true
          RETURNING deal_id, gb
        )
        UPDATE deals d SET reserved_gb = d.reserved_gb + back.gb, updated_at = now()
          FROM back WHERE d.id = back.deal_id
        RETURNING d.id`);
      const row = result.rows[0];
      return row ? Number(row.id) : null;
    },

    /** Records a paid deposit once; false when this order's deposit is already recorded. */
    async insertDeposit(
      tx: Tx,
      deposit: { orderId: string; dealId: number; userId: string; amountCents: number; status: string },
    ): Promise<boolean> {
      const rows = await tx.insert(dealDeposits).values(deposit).onConflictDoNothing().returning();
      return rows.length > 0;
    },

    /** Locks the order's deposit, if it has one. */
    async lockDeposit(tx: Tx, orderId: string) {
      const [row] = await tx
        .select()
        .from(dealDeposits)
        .where(eq(dealDeposits.orderId, orderId))
        .for("update");
      return row;
    },

    /** held | credited | refundable → reversed: the provider gave the deposit's money back. */
    async reverseDeposit(tx: Tx, orderId: string): Promise<boolean> {
      const rows = await tx
        .update(dealDeposits)
        .set({ status: "reversed", updatedAt: sql`now()` })
        .where(
          and(
            eq(dealDeposits.orderId, orderId),
            inArray(dealDeposits.status, ["held", "credited", "refundable"]),
          ),
        )
        .returning({ orderId: dealDeposits.orderId });
      return rows.length > 0;
    },

    /** paid → refunded for a deposit order whose money went back. */
    async markOrderRefunded(tx: Tx, orderId: string): Promise<OrderRow | undefined> {
      const [row] = await tx
        .update(orders)
        .set({ paymentStatus: "refunded", updatedAt: sql`now()` })
        .where(and(eq(orders.id, orderId), eq(orders.paymentStatus, "paid")))
        .returning();
      return row;
    },

    /** A deposit order is paid: it is held by the deal, not credited. */
    async markOrderPaid(tx: Tx, orderId: string, payinHash: string | null): Promise<OrderRow | undefined> {
      const [row] = await tx
        .update(orders)
        .set({
          paymentStatus: "paid",
          payinHash: payinHash ?? sql`${orders.payinHash}`,
          paidAt: sql`coalesce(${orders.paidAt}, now())`,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(orders.id, orderId),
            inArray(orders.paymentStatus, ["waiting", "expired", "partially_paid"]),
          ),
        )
        .returning();
      return row;
    },

    async addDeposited(tx: Tx, dealId: number, deltaCents: number): Promise<void> {
      await tx
        .update(deals)
        .set({ depositedCents: sql`${deals.depositedCents} + ${deltaCents}`, updatedAt: sql`now()` })
        .where(eq(deals.id, dealId));
    },

    /** live → activated, only once the held deposits reach the target. */
    async activate(tx: Tx, dealId: number): Promise<DealRow | undefined> {
      const [row] = await tx
        .update(deals)
        .set({ status: "activated", updatedAt: sql`now()` })
        .where(
          and(
            eq(deals.id, dealId),
            eq(deals.dealType, "group_buy"),
            eq(deals.status, "live"),
            sql`${deals.depositedCents} >= ${targetCents}`,
          ),
        )
        .returning();
      return row;
    },

    /** Live group buys whose deposits reach their target (activation's safety net). */
    async dueForActivation(): Promise<number[]> {
      const rows = await db
        .select({ id: deals.id })
        .from(deals)
        .where(
          and(
            eq(deals.dealType, "group_buy"),
            eq(deals.status, "live"),
            sql`${deals.depositedCents} >= ${targetCents}`,
          ),
        );
      return rows.map((row) => row.id);
    },

    /** pending → live for every deal whose start has come (and end has not). */
    async startDue(): Promise<DealRow[]> {
      return db
        .update(deals)
        .set({ status: "live", updatedAt: sql`now()` })
        .where(
          and(eq(deals.status, "pending"), lte(deals.startTime, sql`now()`), sql`${deals.endTime} > now()`),
        )
        .returning();
    },

    async dueToEnd(): Promise<number[]> {
      const rows = await db
        .select({ id: deals.id })
        .from(deals)
        .where(and(inArray(deals.status, ["pending", "live"]), lte(deals.endTime, sql`now()`)));
      return rows.map((row) => row.id);
    },

    /** pending | live → expired at the end; one conditional UPDATE. */
    async expire(tx: Tx, dealId: number): Promise<DealRow | undefined> {
      const [row] = await tx
        .update(deals)
        .set({ status: "expired", updatedAt: sql`now()` })
        .where(
          and(
            eq(deals.id, dealId),
            inArray(deals.status, ["pending", "live"]),
            lte(deals.endTime, sql`now()`),
          ),
        )
        .returning();
      return row;
    },

    /** pending | live → cancelled by the operator; one conditional UPDATE. */
    async cancel(tx: Tx, dealId: number): Promise<DealRow | undefined> {
      const [row] = await tx
        .update(deals)
        .set({ status: "cancelled", updatedAt: sql`now()` })
        .where(and(eq(deals.id, dealId), inArray(deals.status, ["pending", "live"])))
        .returning();
      return row;
    },

    /** held → credited for every deposit of the deal; returns what was credited. */
    async creditHeld(tx: Tx, dealId: number) {
      return tx
        .update(dealDeposits)
        .set({ status: "credited", updatedAt: sql`now()` })
        .where(and(eq(dealDeposits.dealId, dealId), eq(dealDeposits.status, "held")))
        .returning({
          orderId: dealDeposits.orderId,
          userId: dealDeposits.userId,
          amountCents: dealDeposits.amountCents,
        });
    },

    /** Per owner, the deposits of the deal in `statuses`, with the owner's refund address. */
    async depositsByOwner(tx: Tx, dealId: number, statuses: string[], userId?: string) {
      const rows = await tx
        .select({
          userId: dealDeposits.userId,
          refundAddress: users.refundAddress,
          cents: sql<string>`sum(${dealDeposits.amountCents})`,
          held: sql<string>`sum(${dealDeposits.amountCents}) FILTER (WHERE ${dealDeposits.status} = 'held')`,
        })
        .from(dealDeposits)
        .innerJoin(users, eq(users.id, dealDeposits.userId))
        .where(
          and(
            eq(dealDeposits.dealId, dealId),
            inArray(dealDeposits.status, statuses),
            userId ? eq(dealDeposits.userId, userId) : undefined,
          ),
        )
        .groupBy(dealDeposits.userId, users.refundAddress);
      return rows.map((row) => ({
        userId: row.userId,
        refundAddress: row.refundAddress,
        cents: Number(row.cents),
        heldCents: Number(row.held ?? 0),
      }));
    },

    async insertPayout(
      tx: Tx,
      payout: { userId: string; dealId: number; kind: string; amountCents: number; walletAddress: string },
    ): Promise<PayoutRow> {
      const [row] = await tx.insert(payouts).values(payout).returning();
      if (!row) throw new Error("payout insert returned nothing");
      return row;
    },

    /** Moves an owner's deposits of the deal from `statuses` to `status` (with their payout). */
    async moveDeposits(
      tx: Tx,
      where: { dealId: number; userId: string; from: string[] },
      to: { status: string; payoutId: string | null },
    ): Promise<void> {
      await tx
        .update(dealDeposits)
        .set({ status: to.status, payoutId: to.payoutId, updatedAt: sql`now()` })
        .where(
          and(
            eq(dealDeposits.dealId, where.dealId),
            eq(dealDeposits.userId, where.userId),
            inArray(dealDeposits.status, where.from),
          ),
        );
    },

    /** The caller's deposits in the deal that are still theirs to withdraw or be credited. */
    async openDepositCents(userId: string, dealId: number): Promise<number> {
      const [row] = await db
        .select({ cents: sql<string>`coalesce(sum(${dealDeposits.amountCents}), 0)` })
        .from(dealDeposits)
        .where(
          and(
            eq(dealDeposits.userId, userId),
            eq(dealDeposits.dealId, dealId),
            inArray(dealDeposits.status, ["held", "refundable"]),
          ),
        );
      return Number(row?.cents ?? 0);
    },

    async listPayouts(filter: { status?: string; userId?: string; limit: number }): Promise<PayoutRow[]> {
      return db
        .select()
        .from(payouts)
        .where(
          and(
            filter.status ? eq(payouts.status, filter.status) : undefined,
            filter.userId ? eq(payouts.userId, filter.userId) : undefined,
          ),
        )
        .orderBy(desc(payouts.createdAt), desc(payouts.id))
        .limit(filter.limit);
    },

    /** pending → sent with the transaction hash; one conditional UPDATE. */
    async markPayoutSent(id: string, txHash: string): Promise<PayoutRow | undefined> {
      const [row] = await db
        .update(payouts)
        .set({ status: "sent", txHash, updatedAt: sql`now()` })
        .where(and(eq(payouts.id, id), eq(payouts.status, "pending")))
        .returning();
      return row;
    },

    /** pending → failed; the deposits it carried become refundable (withdrawable again). */
    async markPayoutFailed(tx: Tx, id: string): Promise<PayoutRow | undefined> {
      const [row] = await tx
        .update(payouts)
        .set({ status: "failed", updatedAt: sql`now()` })
        .where(and(eq(payouts.id, id), eq(payouts.status, "pending")))
        .returning();
      if (row) {
        await tx
          .update(dealDeposits)
          .set({ status: "refundable", payoutId: null, updatedAt: sql`now()` })
          .where(eq(dealDeposits.payoutId, id));
      }
      return row;
    },

    async findPayout(id: string): Promise<PayoutRow | undefined> {
      const [row] = await db.select().from(payouts).where(eq(payouts.id, id));
      return row;
    },
  };
}

export type DealsRepository = ReturnType<typeof createDealsRepository>;
