import { type Database, type Db, schema, type Tx } from "@bytetoll/db";
import { and, desc, eq, gte, inArray, lte, or, sql } from "drizzle-orm";

const { dealReservations, deals, orders, payouts } = schema;

export type DealRow = typeof deals.$inferSelect;
export type PayoutRow = typeof payouts.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type { Tx };

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
    async insert(
      values: {
        dealType: string;
        title: string;
        description: string;
        price: string;
        startTime: Date;
        endTime: Date;
        targetGb: number;
      },
      executor: Executor = db,
    ): Promise<DealRow> {
      const [row] = await executor
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
             AND o.payment_status IN ('expired', 'failed', 'cancelled') AND o.credited_bytes = 0
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
  };
}

export type DealsRepository = ReturnType<typeof createDealsRepository>;
