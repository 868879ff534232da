import type { Db } from "@bytetoll/db";
import type { FastifyBaseLogger } from "fastify";
import { claimDue, markDelivered, markFailed } from "./outbox.ts";
import type { DueDelivery } from "./repository.ts";
import { signatureHeader } from "./signature.ts";
import type { WebhookTarget } from "./target.ts";

/** Retries stop this long after the event was raised. */
export const RETRY_WINDOW_MS = 24 * 60 * 60_000;
const MAX_RETRY_DELAY_MS = 60 * 60_000;

interface Deps {
  db: Db;
  target: WebhookTarget;
  openSecret: (sealed: string) => string;
  retryBaseMs: number;
  log: FastifyBaseLogger;
}

/** Exponential back-off: base, 2×base, 4×base… up to an hour; null when the next try would fall
 * after the 24 h window. */
export function retryDelay(
  attempts: number,
  raisedAt: Date,
  baseMs: number,
  now = Date.now(),
): number | null {
  const delay = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
  return now + delay > raisedAt.getTime() + RETRY_WINDOW_MS ? null : delay;
}

/** The body a receiver gets: the same event id on every attempt, so it can drop repeats. */
export function eventBody(delivery: Pick<DueDelivery, "event_id" | "type" | "created" | "data">): string {
  const created = Math.floor(new Date(delivery.created).getTime() / 1000);
  return JSON.stringify({ id: delivery.event_id, type: delivery.type, created, data: delivery.data });
}

/**
 * Sends due deliveries from the table, on every instance: each round claims a batch (no two
 * instances get the same row), posts them signed, and records the answer, until none is due. The
 * job runner runs a round every `WEBHOOK_POLL_MS` on one instance at a time, and at once when an
 * event was raised.
 */
export function createDispatcher(deps: Deps) {
  async function deliver(delivery: DueDelivery): Promise<void> {
    const body = eventBody(delivery);
    const signature = signatureHeader(
      deps.openSecret(delivery.secret_enc),
      body,
      Math.floor(Date.now() / 1000),
    );
    const answer = await deps.target.post(delivery.url, body, {
      "content-type": "application/json",
      "user-agent": "ByteToll-Webhooks/1",
      "bytetoll-signature": signature,
    });
    const code = answer.statusCode;
    if (code !== null && code >= 200 && code < 300) return markDelivered(deps.db, delivery, code);
    const error = answer.error ?? `answered ${code}`;
    const retryIn = retryDelay(delivery.attempts, new Date(delivery.created), deps.retryBaseMs);
    await markFailed(deps.db, delivery, { statusCode: code, error }, retryIn);
  }

  return {
    /** Claims and sends due deliveries until none is left. */
    async round(): Promise<void> {
      for (;;) {
        const due = await claimDue(deps.db);
        if (due.length === 0) return;
        await Promise.all(
          due.map((delivery) =>
            deliver(delivery).catch((error) =>
              deps.log.warn({ err: error, delivery: delivery.id }, "webhook delivery failed"),
            ),
          ),
        );
      }
    },
  };
}
