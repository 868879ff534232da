import type { Database } from "@bytetoll/db";

/** The operator console's reads of what providers told us (payment_rejections, payment_events);
 * the admin module composes them (docs/architecture.md). */

/** The provider callbacks refused for this order. */
export async function rejectionsForOrder(database: Database, orderId: string) {
  return database.query<{ provider: string; reference: string; reason: string; created_at: Date }>(
    "SELECT provider, reference, reason, created_at FROM payment_rejections WHERE order_id = $1",
    [orderId],
  );
}

/** Every provider event recorded for this order, oldest first. */
export async function providerEventsForOrder(database: Database, orderId: string) {
  return database.query<{
    provider: string;
    event_type: string;
    provider_reference: string;
    outcome: string;
    summary: Record<string, unknown>;
    received_at: Date;
  }>(
    `SELECT provider, event_type, provider_reference, outcome, summary, received_at
           FROM payment_events WHERE order_id = $1 ORDER BY received_at, id`,
    [orderId],
  );
}

/** Refused callbacks since `since` by reason, most frequent first. */
export async function rejectionsByReason(database: Database, since: string) {
  return database.query<{ reason: string; count: string }>(
    `SELECT reason, count(*) AS count FROM payment_rejections WHERE created_at >= $1::timestamptz
        GROUP BY reason ORDER BY count(*) DESC, reason`,
    [since],
  );
}
