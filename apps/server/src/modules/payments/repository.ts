import { type Database, schema } from "@bytetoll/db";
import type { Tx } from "../orders/index.ts";

const { paymentEvents, paymentRejections, providerEvents } = schema;

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

/** What the payment callbacks record beside the order itself: provider events seen, each
 * callback's outcome, and signed callbacks that were refused. */
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

    /** True the first time the provider's event id is seen; inside the caller's transaction so a
     * failed handling rolls the record back and the redelivery is processed. */
    async recordProviderEvent(tx: Tx, provider: string, eventId: string, type: string): Promise<boolean> {
      const rows = await tx
        .insert(providerEvents)
        .values({ provider, eventId, type })
        .onConflictDoNothing()
        .returning();
      return rows.length > 0;
    },
  };
}

export type PaymentRecords = ReturnType<typeof createPaymentRecords>;
