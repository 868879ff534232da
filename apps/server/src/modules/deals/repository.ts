import { type Database, type Db, inTransaction, schema, type Tx } from "@bytetoll/db";
import { and, desc, eq, gte, inArray, lte, or, sql } from "drizzle-orm";
import {
  ENDED_UNPAID_STATUSES,
  OPEN_STATUSES,
  type OrderStatus,
  statusList,
} from "../../lib/order-statuses.ts";
import { moveDealStatus } from "./status-writes.ts";

const { dealReservations, deals, orders, payouts } = schema;

export type DealRow = typeof deals.$inferSelect;
export type PayoutRow = typeof payouts.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type { Tx };

type Executor = Db | Tx;

/*
 * THE LOCK ORDER for flash-sale stock: every path that touches a flash-sale order and its stock
 * takes its locks in this one order: first the ORDER row, then its DEAL row; the reservation row and the
 * deal's counter change only while both are held. Settlement (payments, signed callbacks, the
 * operator's mark-paid) locks the order and then the deal; the stock sweep locks each ended
 * order, re-checks it is still unpaid, then locks the deal; cancel and expiry change only the
 * order row and leave the stock to the sweep; a new order's reservation locks only the deal (its
 * order row is not visible to anyone yet). One order for all means no two of them can wait on
 * each other (no deadlock), and the re-check under the order's lock means a paid order's stock is
 * never given back (docs/decisions/012-deals-stock-deposits-payouts.md, revision 2026-11-26).
 * The balance (the users row) comes after both, when the settlement credits.
 */

/** Orders that ended without being paid: their flash-sale stock goes back on sale. */
const ENDED_UNPAID = statusList(ENDED_UNPAID_STATUSES);

/** A group buy's target in cents: target GB at the deal price. */
const targetCents = sql`round(${deals.targetGb} * ${deals.priceUsdPerGb} * 100)`;

/** SQL for deals, their stock, deposits and payouts; no business rules here. */
export function createDealsRepository(database: Database) {
  const { db } = database;
  return {
    /** One transaction; what it queues with afterCommit is sent once it has committed. */
    transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      return inTransaction(db, work);
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

    /** Flash-sale orders that ended unpaid and still hold stock: candidates only, read without
     * locks; releaseReservation decides under the locks. */
    async endedReservations(limit: number): Promise<{ orderId: string; dealId: number }[]> {
      const result = await db.execute<{ order_id: string; deal_id: number }>(sql`
        SELECT r.order_id, r.deal_id FROM deal_reservations r JOIN orders o ON o.id = r.order_id
         WHERE r.released = false AND o.payment_status IN ${ENDED_UNPAID} AND o.credited_bytes = 0
         ORDER BY r.order_id LIMIT ${limit}`);
      return result.rows.map((row) => ({ orderId: row.order_id, dealId: Number(row.deal_id) }));
    },

    /** The first lock of THE LOCK ORDER above: the order row. */
    async lockOrder(tx: Tx, orderId: string): Promise<boolean> {
      const result = await tx.execute(sql`SELECT id FROM orders WHERE id = ${orderId} FOR UPDATE`);
      return result.rows.length > 0;
    },

    /** With the order and its deal locked: gives the order's stock back if the order is still
     * ended unpaid (a payment credited meanwhile keeps it). True when stock went back. */
    async releaseReservation(tx: Tx, orderId: string): Promise<boolean> {
      const result = await tx.execute(sql`
        WITH freed AS (
          UPDATE deal_reservations r SET released = true
            FROM orders o
           WHERE r.order_id = ${orderId} AND o.id = r.order_id AND r.released = false
             AND o.payment_status IN ${ENDED_UNPAID} AND o.credited_bytes = 0
          RETURNING r.deal_id, r.gb
        )
        UPDATE deals d SET reserved_gb = d.reserved_gb - freed.gb, updated_at = now()
          FROM freed WHERE d.id = freed.deal_id
        RETURNING d.id`);
      return result.rows.length > 0;
    },

    async findReservation(tx: Tx, orderId: string) {
      const [row] = await tx.select().from(dealReservations).where(eq(dealReservations.orderId, orderId));
      return row;
    },

    /** With the order and its deal locked: a payment arrived for an order whose stock was given
     * back; it takes that stock again only if the sale still has it. True when it did. */
    async reclaimReservation(tx: Tx, orderId: string): Promise<boolean> {
      const result = await tx.execute(sql`
        WITH back AS (
          UPDATE deal_reservations r SET released = false
            FROM deals d
           WHERE r.order_id = ${orderId} AND r.released = true AND d.id = r.deal_id
             AND d.reserved_gb + r.gb <= d.target_gb
          RETURNING r.deal_id, r.gb
        )
        UPDATE deals d SET reserved_gb = d.reserved_gb + back.gb, updated_at = now()
          FROM back WHERE d.id = back.deal_id
        RETURNING d.id`);
      return result.rows.length > 0;
    },

    /** The account's flash-sale orders for this deal that still hold stock unpaid (waiting and
     * not yet due, or paid in part); read under the deal's lock. */
    async openOrders(tx: Tx, dealId: number, userId: string): Promise<number> {
      const result = await tx.execute<{ open: string | number }>(sql`
        SELECT count(*) AS open FROM deal_reservations r JOIN orders o ON o.id = r.order_id
         WHERE r.deal_id = ${dealId} AND r.released = false AND o.user_id = ${userId}
           AND o.credited_bytes = 0
           AND (o.payment_status = ${"partially_paid" satisfies OrderStatus}
                OR (o.payment_status IN ${statusList(OPEN_STATUSES)} AND o.expires_at > now()))`);
      return Number(result.rows[0]?.open ?? 0);
    },

    async addDeposited(tx: Tx, dealId: number, deltaCents: number): Promise<void> {
      await tx
        .update(deals)
        .set({ depositedCents: sql`${deals.depositedCents} + ${deltaCents}`, updatedAt: sql`now()` })
        .where(eq(deals.id, dealId));
    },

    /** live → activated, only once the held deposits reach the target. */
    async activate(tx: Tx, dealId: number): Promise<DealRow | undefined> {
      const [row] = await moveDealStatus(tx, eq(deals.id, dealId), {
        from: ["live"],
        to: "activated",
        where: and(eq(deals.dealType, "group_buy"), sql`${deals.depositedCents} >= ${targetCents}`),
      });
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
      return moveDealStatus(db, sql`true`, {
        from: ["pending"],
        to: "live",
        where: and(lte(deals.startTime, sql`now()`), sql`${deals.endTime} > now()`),
      });
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
      const [row] = await moveDealStatus(tx, eq(deals.id, dealId), {
        from: ["pending", "live"],
        to: "expired",
        where: lte(deals.endTime, sql`now()`),
      });
      return row;
    },

    /** pending | live → cancelled by the operator; one conditional UPDATE. */
    async cancel(tx: Tx, dealId: number): Promise<DealRow | undefined> {
      const [row] = await moveDealStatus(tx, eq(deals.id, dealId), {
        from: ["pending", "live"],
        to: "cancelled",
      });
      return row;
    },
  };
}

export type DealsRepository = ReturnType<typeof createDealsRepository>;
