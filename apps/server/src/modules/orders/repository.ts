import { type Database, type Db, inTransaction, schema, type Tx } from "@bytetoll/db";
import { and, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { IssuerDetails } from "./invoice-numbers.ts";
import { withOwnPaymentId } from "./order-errors.ts";
import { createOrderLists } from "./order-lists.ts";
import type { OrderRow } from "./order-view.ts";
import { createStatusWrites } from "./status-writes.ts";

const { orders } = schema;

export type { HistoryRow } from "./order-lists.ts";
export { HISTORY_LEDGER_KINDS } from "./order-lists.ts";
export type { PaymentChoice } from "./status-writes.ts";
export type { Tx };

type Executor = Db | Tx;

export const ORDER_VALID_MINUTES = 60;

export type NewOrder = Omit<typeof orders.$inferInsert, "expiresAt" | "createdAt" | "updatedAt">;

/** SQL for orders; no business rules here. */
export function createOrdersRepository(database: Database, issuer: IssuerDetails | null = null) {
  const { db } = database;
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
            eq(orders.paymentStatus, "awaiting_method"),
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

    /** The order that opened this hosted checkout session of the provider. */
    async findByProviderSession(provider: string, sessionId: string): Promise<OrderRow | undefined> {
      const [row] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.provider, provider), eq(orders.providerSessionId, sessionId)));
      return row;
    },

    /** Locks the row until the transaction ends: concurrent confirmations queue up here. */
    async lock(tx: Tx, orderId: string): Promise<OrderRow | undefined> {
      const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
      return row;
    },

    async findMany(orderIds: string[]): Promise<OrderRow[]> {
      return orderIds.length === 0 ? [] : db.select().from(orders).where(inArray(orders.id, orderIds));
    },

    ...createStatusWrites(db, issuer),
    ...createOrderLists(db),
  };
}

export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
