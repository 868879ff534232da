import { type Db, schema, type Tx } from "@bytetoll/db";
import { and, eq, gt, inArray, isNull, lte, type SQL, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { type IssuerDetails, issueDocument } from "./invoice-numbers.ts";
import { withOwnPaymentId } from "./order-errors.ts";
import { asOrderStatus, canMove, OPEN_STATUSES, type OrderStatus } from "./order-status.ts";
import type { OrderRow } from "./order-view.ts";

const { orders } = schema;

type Executor = Db | Tx;
type OrderSet = PgUpdateSetSource<typeof orders>;

/** What choosing how to pay writes onto an order awaiting its method. */
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

/** Statuses a payment that arrived in part may come from (not failed or refunded, and not paid). */
const PARTIAL_FROM = ["awaiting_method", "waiting", "expired", "cancelled", "partially_paid"] as const;

/**
 * THE one UPDATE that sets an order's status: `from` → `to`, each move checked against
 * ORDER_TRANSITIONS first (a move the table does not allow is a programming error: it throws,
 * and the caller's transaction rolls back). The row changes only while its status is still one
 * of `from` and `where` holds — a compare-and-set, so of two racing writers one wins.
 */
async function moveStatus(
  executor: Executor,
  orderIds: string | SQL,
  move: { from: readonly OrderStatus[]; to: OrderStatus; set?: OrderSet; where?: SQL | undefined },
): Promise<OrderRow[]> {
  for (const from of move.from) {
    if (!canMove(from, move.to)) throw new Error(`order status may not move ${from} → ${move.to}`);
  }
  const which = typeof orderIds === "string" ? eq(orders.id, orderIds) : orderIds;
  return executor
    .update(orders)
    .set({ ...move.set, paymentStatus: move.to, updatedAt: sql`now()` })
    .where(and(which, inArray(orders.paymentStatus, [...move.from]), move.where))
    .returning();
}

const first = async (rows: Promise<OrderRow[]>) => (await rows)[0];

/** The order just moved: a first payment issues its invoice, a full refund its credit note, in
 * the same transaction (docs/product.md#invoices). */
async function withDocument(
  tx: Tx,
  moved: Promise<OrderRow | undefined>,
  issuer: IssuerDetails | null,
): Promise<OrderRow | undefined> {
  const row = await moved;
  if (row?.paymentStatus === "paid") await issueDocument(tx, row, "invoice", issuer);
  if (row?.paymentStatus === "refunded") await issueDocument(tx, row, "credit_note", issuer);
  return row;
}
const keepHash = (payinHash: string | null) => payinHash ?? sql`${orders.payinHash}`;

/** Every write that changes an order's status, each one move of the table; and the writes that
 * record a provider's payment on an order. */
export function createStatusWrites(db: Db, issuer: IssuerDetails | null = null) {
  return {
    /** awaiting_method → waiting with the method chosen (of two concurrent choices one lands;
     * an order past its time is not chosen for). */
    choosePayment: (orderId: string, choice: PaymentChoice) =>
      withOwnPaymentId(
        first(
          moveStatus(db, orderId, {
            from: ["awaiting_method"],
            to: "waiting",
            set: choice,
            where: gt(orders.expiresAt, sql`now()`),
          }),
        ),
      ),

    /** Moves credited_bytes forward only from the value the caller saw (compare-and-set); the
     * order is then paid (from anything but refunded, which is closed). */
    recordCredit: (
      tx: Tx,
      row: OrderRow,
      change: { toCredited: number; balanceBytesAfter: number | null; payinHash: string | null },
    ) =>
      withDocument(
        tx,
        first(
          moveStatus(tx, row.id, {
            from: ["awaiting_method", "waiting", "partially_paid", "paid", "expired", "cancelled", "failed"],
            to: "paid",
            set: {
              creditedBytes: change.toCredited,
              balanceBytesAfter: change.balanceBytesAfter,
              payinHash: keepHash(change.payinHash),
              paidAt: sql`coalesce(${orders.paidAt}, now())`,
            },
            where: eq(orders.creditedBytes, Number(row.creditedBytes)),
          }),
        ),
        issuer,
      ),

    /** Moves reversed_bytes forward only from the value the caller saw (compare-and-set); all of
     * the credit taken back makes the order refunded. */
    recordReversal: (
      tx: Tx,
      row: OrderRow,
      change: { toReversed: number; balanceBytesAfter: number | null },
    ) =>
      withDocument(
        tx,
        first(
          moveStatus(tx, row.id, {
            from: [asOrderStatus(row.paymentStatus)],
            to:
              change.toReversed >= Number(row.creditedBytes) ? "refunded" : asOrderStatus(row.paymentStatus),
            set: { reversedBytes: change.toReversed, balanceBytesAfter: change.balanceBytesAfter },
            where: eq(orders.reversedBytes, Number(row.reversedBytes)),
          }),
        ),
        issuer,
      ),

    /** → partially_paid with what arrived, credit untouched. */
    recordPartialPayment: (tx: Tx, orderId: string, change: { note: string; payinHash: string | null }) =>
      first(
        moveStatus(tx, orderId, {
          from: PARTIAL_FROM,
          to: "partially_paid",
          set: { note: change.note, payinHash: keepHash(change.payinHash) },
        }),
      ),

    /** A refund or chargeback of an order never credited: an open one fails, a partially paid
     * one is refunded (the part that arrived went back); anything else stays as it is. */
    closeUncredited: async (tx: Tx, row: OrderRow) => {
      const where = eq(orders.creditedBytes, 0);
      if (row.paymentStatus === "partially_paid") {
        return first(moveStatus(tx, row.id, { from: ["partially_paid"], to: "refunded", where }));
      }
      return first(moveStatus(tx, row.id, { from: OPEN_STATUSES, to: "failed", where }));
    },

    /** An open order → failed | expired; anything else stays as it is. */
    closeOpen: (executor: Executor, orderId: string, status: "failed" | "expired") =>
      first(moveStatus(executor, orderId, { from: OPEN_STATUSES, to: status })),

    /** An open order not yet due → cancelled, in one conditional UPDATE: a payment being credited
     * holds the row lock, so this waits for it and then finds the order paid (nothing changes). */
    cancelOpen: (orderId: string) =>
      first(
        moveStatus(db, orderId, {
          from: OPEN_STATUSES,
          to: "cancelled",
          where: gt(orders.expiresAt, sql`now()`),
        }),
      ),

    /** One conditional UPDATE: whichever instance runs it first expires a row, once. */
    expireDue: (userId?: string) =>
      moveStatus(db, userId ? eq(orders.userId, userId) : sql`true`, {
        from: OPEN_STATUSES,
        to: "expired",
        where: lte(orders.expiresAt, sql`now()`),
      }),

    /** A group-buy deposit order is paid: held by its deal, not credited. */
    markDepositPaid: (tx: Tx, orderId: string, payinHash: string | null) =>
      first(
        moveStatus(tx, orderId, {
          from: PARTIAL_FROM,
          to: "paid",
          set: { payinHash: keepHash(payinHash), paidAt: sql`coalesce(${orders.paidAt}, now())` },
        }),
      ),

    /** paid → refunded for a deposit order whose money all went back. */
    markDepositRefunded: (tx: Tx, orderId: string) =>
      first(moveStatus(tx, orderId, { from: ["paid"], to: "refunded" })),

    /** A payment for a flash-sale order whose stock went to other buyers: the order buys `bytes`
     * at the list price instead of its units, and says so in its note (status unchanged). */
    async priceAtList(tx: Tx, orderId: string, bytes: number, note: string): Promise<void> {
      await tx
        .update(orders)
        .set({ bytes, note, updatedAt: sql`now()` })
        .where(and(eq(orders.id, orderId), eq(orders.creditedBytes, 0)));
    },

    /** The hosted checkout opened for a waiting order (status unchanged). */
    attachCheckout: (orderId: string, checkout: { sessionId: string | null; redirectUrl: string }) =>
      withOwnPaymentId(
        first(
          db
            .update(orders)
            .set({
              providerSessionId: checkout.sessionId,
              providerRedirectUrl: checkout.redirectUrl,
              updatedAt: sql`now()`,
            })
            .where(and(eq(orders.id, orderId), eq(orders.paymentStatus, "waiting")))
            .returning(),
        ),
      ),

    /** Remembers the provider's payment behind the order's checkout session, once (first one
     * wins): refunds and disputes name it. */
    async attachProviderPayment(tx: Tx, orderId: string, paymentId: string): Promise<void> {
      await tx
        .update(orders)
        .set({ providerPaymentId: paymentId })
        .where(and(eq(orders.id, orderId), isNull(orders.providerPaymentId)));
    },
  };
}

export type StatusWrites = ReturnType<typeof createStatusWrites>;
