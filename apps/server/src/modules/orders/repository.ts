import { type Database, type Db, inTransaction, schema, type Tx } from "@bytetoll/db";
import { and, count, desc, eq, gt, inArray, isNull, lte, sql } from "drizzle-orm";
import { withOwnPaymentId } from "./order-errors.ts";
import type { OrderRow } from "./order-view.ts";

const { orders } = schema;

export type { Tx };

type Executor = Db | Tx;

export const ORDER_VALID_MINUTES = 60;

/** A pending order made at sign-in: waiting, crypto by default, no network or payment yet. */
const unpriced = and(
  eq(orders.paymentStatus, "waiting"),
  eq(orders.method, "crypto"),
  isNull(orders.networkType),
  isNull(orders.providerPaymentId),
);

/** What choosing how to pay writes onto an unpriced order. */
export type PaymentChoice = Pick<
  typeof orders.$inferInsert,
  | "method"
  | "networkType"
  | "provider"
  | "providerPaymentId"
  | "payAddress"
  | "qrCode"
  | "priceAmountCents"
  | "paymentToken"
>;

export type NewOrder = Omit<typeof orders.$inferInsert, "expiresAt" | "createdAt" | "updatedAt">;

function prepareListPage(db: Db, byMethod: boolean) {
  const where = byMethod
    ? and(eq(orders.userId, sql.placeholder("userId")), eq(orders.method, sql.placeholder("method")))
    : eq(orders.userId, sql.placeholder("userId"));
  const page = db
    .$with("page")
    .as(
      db
        .select({ pageId: orders.id })
        .from(orders)
        .where(where)
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset")),
    );
  return db
    .with(page)
    .select({ order: orders, total: sql<string | number>`(SELECT count(*) FROM ${orders} WHERE ${where})` })
    .from(page)
    .innerJoin(orders, eq(orders.id, page.pageId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .prepare(byMethod ? "orders_page_by_method" : "orders_page");
}

/** A row of the history page before its orders are read in full: an order (`order_id`) or a
 * ledger entry that is not an order's purchase credit. */
export interface HistoryRow {
  kind: string;
  createdAt: Date;
  orderId: string | null;
  entryId: number | null;
  deltaBytes: number | null;
  note: string | null;
  reference: string | null;
}

/** Ledger kinds the history shows beside the orders (purchases are the orders themselves, usage
 * is the Usage page). */
export const HISTORY_LEDGER_KINDS = ["bonus", "adjustment", "deposit", "refund", "chargeback"];

/** SQL for orders; no business rules here. */
export function createOrdersRepository(database: Database) {
  const { db } = database;
  const listPage = prepareListPage(db, false);
  const listPageByMethod = prepareListPage(db, true);
  return {
    /** One transaction; what it queues with afterCommit is sent once it has committed. */
    transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      return inTransaction(db, work);
    },

    /** A new order, payable for `validMinutes` (a flash sale's hold is shorter). */
    async insert(
      values: NewOrder,
      executor: Executor = db,
      validMinutes = ORDER_VALID_MINUTES,
    ): Promise<OrderRow> {
      const [row] = await withOwnPaymentId(
        executor
          .insert(orders)
          .values({ ...values, expiresAt: sql`now() + make_interval(mins => ${validMinutes})` })
          .returning(),
      );
      if (!row) throw new Error("order insert returned nothing");
      return row;
    },

    /** Serialises order creation per account until the transaction ends (a double submit waits
     * for the first and then finds its order). */
    async lockUser(tx: Tx, userId: string): Promise<void> {
      await tx.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
    },

    /** The account's waiting order of this amount that has no payment method chosen yet and was
     * created in the last `withinMinutes`, if any. */
    async findRecentUnpriced(
      tx: Tx,
      userId: string,
      amountCents: number,
      withinMinutes: number,
    ): Promise<OrderRow | undefined> {
      const [row] = await tx
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.userId, userId),
            unpriced,
            eq(orders.amountCents, amountCents),
            isNull(orders.dealId),
            gt(orders.createdAt, sql`now() - make_interval(mins => ${withinMinutes})`),
            gt(orders.expiresAt, sql`now()`),
          ),
        )
        .orderBy(desc(orders.createdAt))
        .limit(1);
      return row;
    },

    /** Sets the payment method of an order that has none yet (compare-and-set on "unpriced", so
     * of two concurrent choices only one lands). */
    async choosePayment(orderId: string, choice: PaymentChoice): Promise<OrderRow | undefined> {
      const [row] = await withOwnPaymentId(
        db
          .update(orders)
          .set({ ...choice, updatedAt: sql`now()` })
          .where(and(eq(orders.id, orderId), unpriced, gt(orders.expiresAt, sql`now()`)))
          .returning(),
      );
      return row;
    },

    async findForUser(userId: string, orderId: string): Promise<OrderRow | undefined> {
      const [row] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
      return row;
    },

    async find(orderId: string): Promise<OrderRow | undefined> {
      const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
      return row;
    },

    async findByProviderPayment(provider: string, paymentId: string): Promise<OrderRow | undefined> {
      const [row] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.provider, provider), eq(orders.providerPaymentId, paymentId)));
      return row;
    },

    /** Locks the row until the transaction ends: concurrent confirmations queue up here. */
    async lock(tx: Tx, orderId: string): Promise<OrderRow | undefined> {
      const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
      return row;
    },

    /** Moves credited_bytes forward only from the value the caller saw (compare-and-set); the
     * order is then paid. */
    async recordCredit(
      tx: Tx,
      orderId: string,
      change: {
        fromCredited: number;
        toCredited: number;
        balanceBytesAfter: number | null;
        payinHash: string | null;
      },
    ): Promise<OrderRow | undefined> {
      const [row] = await tx
        .update(orders)
        .set({
          creditedBytes: change.toCredited,
          paymentStatus: "paid",
          balanceBytesAfter: change.balanceBytesAfter,
          payinHash: change.payinHash === null ? sql`${orders.payinHash}` : change.payinHash,
          paidAt: sql`coalesce(${orders.paidAt}, now())`,
          updatedAt: sql`now()`,
        })
        .where(and(eq(orders.id, orderId), eq(orders.creditedBytes, change.fromCredited)))
        .returning();
      return row;
    },

    /** Moves reversed_bytes forward only from the value the caller saw (compare-and-set). */
    async recordReversal(
      tx: Tx,
      orderId: string,
      change: { fromReversed: number; toReversed: number; status: string; balanceBytesAfter: number | null },
    ): Promise<OrderRow | undefined> {
      const [row] = await tx
        .update(orders)
        .set({
          reversedBytes: change.toReversed,
          paymentStatus: change.status,
          balanceBytesAfter: change.balanceBytesAfter,
          updatedAt: sql`now()`,
        })
        .where(and(eq(orders.id, orderId), eq(orders.reversedBytes, change.fromReversed)))
        .returning();
      return row;
    },

    /** waiting | expired | cancelled | partially_paid → partially_paid with what arrived, credit untouched;
     * a paid, failed or refunded order stays as it is. */
    async recordPartialPayment(
      tx: Tx,
      orderId: string,
      change: { note: string; payinHash: string | null },
    ): Promise<OrderRow | undefined> {
      const [row] = await tx
        .update(orders)
        .set({
          paymentStatus: "partially_paid",
          note: change.note,
          payinHash: change.payinHash === null ? sql`${orders.payinHash}` : change.payinHash,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(orders.id, orderId),
            inArray(orders.paymentStatus, ["waiting", "expired", "cancelled", "partially_paid"]),
          ),
        )
        .returning();
      return row;
    },

    /** A refund or chargeback of an order never credited: waiting → failed, partially_paid →
     * refunded (the part that arrived went back); anything else stays as it is. */
    async closeUncredited(tx: Tx, orderId: string): Promise<OrderRow | undefined> {
      const [row] = await tx
        .update(orders)
        .set({
          paymentStatus: sql`CASE WHEN ${orders.paymentStatus} = 'waiting' THEN 'failed' ELSE 'refunded' END`,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(orders.id, orderId),
            eq(orders.creditedBytes, 0),
            inArray(orders.paymentStatus, ["waiting", "partially_paid"]),
          ),
        )
        .returning();
      return row;
    },

    /** waiting → failed | expired; anything else stays as it is. */
    async closeWaiting(
      executor: Executor,
      orderId: string,
      status: "failed" | "expired",
    ): Promise<OrderRow | undefined> {
      const [row] = await executor
        .update(orders)
        .set({ paymentStatus: status, updatedAt: sql`now()` })
        .where(and(eq(orders.id, orderId), eq(orders.paymentStatus, "waiting")))
        .returning();
      return row;
    },

    /** waiting and not yet due → cancelled, in one conditional UPDATE: a payment being credited
     * holds the row lock, so this waits for it and then finds the order paid (nothing changes). */
    async cancelWaiting(orderId: string): Promise<OrderRow | undefined> {
      const [row] = await db
        .update(orders)
        .set({ paymentStatus: "cancelled", updatedAt: sql`now()` })
        .where(
          and(eq(orders.id, orderId), eq(orders.paymentStatus, "waiting"), gt(orders.expiresAt, sql`now()`)),
        )
        .returning();
      return row;
    },

    /** One conditional UPDATE: whichever instance runs it first expires a row, once. */
    async expireDue(userId?: string): Promise<OrderRow[]> {
      const due = and(eq(orders.paymentStatus, "waiting"), lte(orders.expiresAt, sql`now()`));
      return db
        .update(orders)
        .set({ paymentStatus: "expired", updatedAt: sql`now()` })
        .where(userId ? and(due, eq(orders.userId, userId)) : due)
        .returning();
    },

    async attachCheckout(
      orderId: string,
      checkout: { providerPaymentId: string | null; redirectUrl: string },
    ): Promise<OrderRow | undefined> {
      const [row] = await withOwnPaymentId(
        db
          .update(orders)
          .set({
            providerPaymentId: checkout.providerPaymentId,
            stripeSessionId: checkout.providerPaymentId,
            stripeRedirectUrl: checkout.redirectUrl,
            updatedAt: sql`now()`,
          })
          .where(and(eq(orders.id, orderId), eq(orders.paymentStatus, "waiting")))
          .returning(),
      );
      return row;
    },

    /**
     * One page of the account's history: its orders and its ledger entries of HISTORY_LEDGER_KINDS
     * in one list, newest first. The order is total (time, then orders before ledger entries of
     * the same instant, then id), so consecutive pages never show a row twice.
     */
    async historyPage(
      userId: string,
      options: { limit: number; offset: number },
    ): Promise<{ rows: HistoryRow[]; total: number }> {
      const kinds = sql.join(
        HISTORY_LEDGER_KINDS.map((kind) => sql`${kind}`),
        sql`, `,
      );
      const [page, counted] = await Promise.all([
        db.execute<{
          kind: string;
          created_at: Date | string;
          order_id: string | null;
          entry_id: string | number | null;
          delta_bytes: string | number | null;
          note: string | null;
          reference: string | null;
        }>(sql`
          SELECT kind, created_at, order_id, entry_id, delta_bytes, note, reference FROM (
            SELECT 'order' AS kind, created_at, id AS order_id, NULL::bigint AS entry_id,
                   NULL::bigint AS delta_bytes, NULL::text AS note, NULL::text AS reference,
                   1 AS rank, id::text AS tie
              FROM orders WHERE user_id = ${userId}
            UNION ALL
            SELECT kind, created_at, NULL::uuid, id, delta_bytes, note, reference,
                   0, lpad(id::text, 20, '0')
              FROM ledger_entries WHERE user_id = ${userId} AND kind IN (${kinds})
          ) AS history
          ORDER BY created_at DESC, rank DESC, tie DESC
          LIMIT ${options.limit} OFFSET ${options.offset}`),
        db.execute<{ total: string | number }>(sql`
          SELECT (SELECT count(*) FROM orders WHERE user_id = ${userId})
               + (SELECT count(*) FROM ledger_entries WHERE user_id = ${userId} AND kind IN (${kinds}))
               AS total`),
      ]);
      return {
        rows: page.rows.map((row) => ({
          kind: row.kind,
          createdAt: new Date(row.created_at),
          orderId: row.order_id,
          entryId: row.entry_id === null ? null : Number(row.entry_id),
          deltaBytes: row.delta_bytes === null ? null : Number(row.delta_bytes),
          note: row.note,
          reference: row.reference,
        })),
        total: Number(counted.rows[0]?.total ?? 0),
      };
    },

    async findMany(orderIds: string[]): Promise<OrderRow[]> {
      return orderIds.length === 0 ? [] : db.select().from(orders).where(inArray(orders.id, orderIds));
    },

    /** One page and the total in one round trip, as a prepared statement (the history is the
     * most-read list). The page is chosen on the (user_id, created_at, id) index and only its
     * rows are read in full: counting over full rows would drag every QR code along. */
    async listForUser(
      userId: string,
      options: { limit: number; offset: number; method?: "crypto" | "card" | undefined },
    ): Promise<{ rows: OrderRow[]; total: number }> {
      const params = { userId, limit: options.limit, offset: options.offset };
      const page = options.method
        ? await listPageByMethod.execute({ ...params, method: options.method })
        : await listPage.execute(params);
      if (page.length > 0) return { rows: page.map((row) => row.order), total: Number(page[0]?.total ?? 0) };
      const where = options.method
        ? and(eq(orders.userId, userId), eq(orders.method, options.method))
        : eq(orders.userId, userId);
      const [counted] = await db.select({ total: count() }).from(orders).where(where);
      return { rows: [], total: Number(counted?.total ?? 0) };
    },
  };
}

export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
