import { type Database, schema } from "@bytetoll/db";
import { and, eq, isNull } from "drizzle-orm";
import type { OrderRow } from "../orders/order-view.ts";
import type { Tx } from "../orders/repository.ts";

const { orders, paymentRejections, stripeEvents } = schema;

/** What the payment callbacks record beside the order itself: Stripe events seen, the payment
 * intent behind a card order, and signed callbacks that were refused. */
export function createPaymentRecords(database: Database) {
  const { db } = database;
  return {
    async findByStripePaymentIntent(paymentIntent: string): Promise<OrderRow | undefined> {
      const [row] = await db.select().from(orders).where(eq(orders.stripePaymentIntent, paymentIntent));
      return row;
    },

    /** Remembers the payment intent of the order's session (first one wins). */
    async attachPaymentIntent(tx: Tx, orderId: string, paymentIntent: string): Promise<void> {
      await tx
        .update(orders)
        .set({ stripePaymentIntent: paymentIntent })
        .where(and(eq(orders.id, orderId), isNull(orders.stripePaymentIntent)));
    },

    /** A signed callback that was not credited, and why; the same one again is not a new row. */
    async recordRejection(rejection: typeof paymentRejections.$inferInsert): Promise<void> {
      await db.insert(paymentRejections).values(rejection).onConflictDoNothing();
    },

    /** True the first time an event id is seen; inside the caller's transaction so a failed
     * handling rolls the record back and the redelivery is processed. */
    async recordStripeEvent(tx: Tx, id: string, type: string): Promise<boolean> {
      const rows = await tx.insert(stripeEvents).values({ id, type }).onConflictDoNothing().returning();
      return rows.length > 0;
    },
  };
}

export type PaymentRecords = ReturnType<typeof createPaymentRecords>;
