import { randomBytes, randomUUID } from "node:crypto";
import type { Db } from "@bytetoll/db";
import { sql } from "drizzle-orm";
import type { DueDelivery, Executor } from "./repository.ts";

/** A claimed delivery is this instance's for this long: longer than one attempt (10 s), so no
 * other instance sends it meanwhile; a claim left by a stopped instance expires by itself. */
const CLAIM_MS = 60_000;
/** Deliveries one instance claims per round. */
const BATCH = 20;

export const newEventId = () => `evt_${randomBytes(12).toString("hex")}`;

export interface RaisedEvent {
  userId: string;
  type: string;
  data: Record<string, unknown>;
  /** What the event is about: the same key raises nothing a second time. */
  key: string;
  /** Only this endpoint (the test button's ping); otherwise every endpoint subscribed to `type`. */
  endpointId?: string;
}

/** Records the event and one due delivery per subscribed endpoint. Nothing is recorded when no
 * endpoint listens, or when the key was raised before. Returns the event id, or null. */
export async function recordEvent(executor: Executor, event: RaisedEvent): Promise<string | null> {
  const id = newEventId();
  const endpointFilter = event.endpointId ? sql`id = ${event.endpointId}` : sql`${event.type} = ANY(events)`;
  const { rows } = await executor.execute<{ id: string }>(sql`
    WITH listeners AS (
      SELECT id FROM webhook_endpoints WHERE user_id = ${event.userId} AND ${endpointFilter}
    ), raised AS (
      INSERT INTO webhook_events (id, user_id, type, dedupe_key, data)
      SELECT ${id}, ${event.userId}, ${event.type}, ${event.key}, ${JSON.stringify(event.data)}::jsonb
       WHERE EXISTS (SELECT 1 FROM listeners)
      ON CONFLICT (user_id, dedupe_key) DO NOTHING
      RETURNING id
    )
    INSERT INTO webhook_deliveries (event_id, endpoint_id)
    SELECT raised.id, listeners.id FROM raised CROSS JOIN listeners
    RETURNING event_id AS id`);
  return rows[0]?.id ?? null;
}

/** Takes up to BATCH due deliveries for this instance: SKIP LOCKED lets instances claiming at the
 * same moment take different rows, and the claim token makes a late finisher's write a no-op. */
export async function claimDue(db: Db): Promise<DueDelivery[]> {
  const claim = randomUUID();
  const { rows } = await db.execute<DueDelivery>(sql`
    WITH claimed AS (
      UPDATE webhook_deliveries
         SET claimed_until = now() + make_interval(secs => ${CLAIM_MS / 1000}), claim = ${claim},
             attempts = attempts + 1
       WHERE id IN (
         SELECT id FROM webhook_deliveries
          WHERE status = 'pending' AND next_attempt_at <= now()
            AND (claimed_until IS NULL OR claimed_until < now())
          ORDER BY next_attempt_at
          LIMIT ${BATCH}
          FOR UPDATE SKIP LOCKED)
      RETURNING id, claim, attempts, event_id, endpoint_id
    )
    SELECT claimed.id::text AS id, claimed.claim, claimed.attempts, p.url, p.secret_enc,
           e.id AS event_id, e.type, e.data, e.created_at AS created
      FROM claimed
      JOIN webhook_endpoints p ON p.id = claimed.endpoint_id
      JOIN webhook_events e ON e.id = claimed.event_id`);
  return rows;
}

export async function markDelivered(db: Db, delivery: DueDelivery, statusCode: number): Promise<void> {
  await db.execute(sql`
    UPDATE webhook_deliveries
       SET status = 'delivered', delivered_at = now(), last_status_code = ${statusCode},
           last_error = NULL, claimed_until = NULL
     WHERE id = ${delivery.id} AND claim = ${delivery.claim}`);
}

/** A failed attempt: tried again after `retryInMs`, or given up (null) once 24 h have passed. */
export async function markFailed(
  db: Db,
  delivery: DueDelivery,
  answer: { statusCode: number | null; error: string | null },
  retryInMs: number | null,
): Promise<void> {
  await db.execute(sql`
    UPDATE webhook_deliveries
       SET status = ${retryInMs === null ? "failed" : "pending"},
           next_attempt_at = now() + make_interval(secs => ${(retryInMs ?? 0) / 1000}),
           last_status_code = ${answer.statusCode}, last_error = ${answer.error?.slice(0, 500) ?? null},
           claimed_until = NULL
     WHERE id = ${delivery.id} AND claim = ${delivery.claim}`);
}
