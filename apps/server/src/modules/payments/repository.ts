import { type Database, schema } from "@bytetoll/db";
import { and, eq, isNull } from "drizzle-orm";
import type { OrderRow, Tx } from "../orders/index.ts";

const { orders, paymentEvents, paymentRejections, stripeEvents } = schema;

/** A signed, verified provider callback about an order, as the order page shows it: amounts and
 * currencies only in `summary`, never a signature or the provider's payload. */
export interface ProviderEvent {
  provider: string;
  /** The provider's name for it (checkout.session.completed, NOWPayments status "finished"…). */
  type: string;
  /** The provider's id of the event or payment. */
  reference: string;
  summary: Record<string, string | number | null>;
}

/** What the payment callbacks record beside the order itself: Stripe events seen, the payment
 * intent behind a card order, and signed callbacks that were refused. */
export function createPaymentRecords(database: Database) {
  const { db } = database;

  /** One provider callback and what it did to the order, in the caller's transaction. */
  async function recordEvent(tx: Tx, orderId: string, event: ProviderEvent, outcome: string) {
    await tx.insert(paymentEvents).values({
      orderId,
      provider: event.provider,
      eventType: event.type,
      providerReference: event.reference,
      outcome,
      summary: event.summary,
    });
  }

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

    /** A signed callback that was not credited, and why (the same one again is not a new
     * rejection row), with its event row, in one transaction. */
    async recordRejection(rejection: typeof paymentRejections.$inferInsert, event?: ProviderEvent) {
      await db.transaction(async (tx) => {
        const fresh = await tx.insert(paymentRejections).values(rejection).onConflictDoNothing().returning();
        if (event) {
          await recordEvent(
            tx,
            rejection.orderId,
            event,
            fresh.length > 0 ? "rejected" : "ignored_duplicate",
          );
        }
      });
    },

    recordEvent,

    /** True the first time an event id is seen; inside the caller's transaction so a failed
     * handling rolls the record back and the redelivery is processed. */
    async recordStripeEvent(tx: Tx, id: string, type: string): Promise<boolean> {
      const rows = await tx.insert(stripeEvents).values({ id, type }).onConflictDoNothing().returning();
      return rows.length > 0;
    },
  };
}

export type PaymentRecords = ReturnType<typeof createPaymentRecords>;
