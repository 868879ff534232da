import { randomBytes } from "node:crypto";
import {
  type CreateWebhookRequest,
  MAX_WEBHOOK_ENDPOINTS,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from "@bytetoll/contracts";
import { type Database, decryptSecret, deriveKey, encryptSecret } from "@bytetoll/db";
import type { FastifyBaseLogger } from "fastify";
import { AppError, notFound } from "../../errors.ts";
import type { Order } from "../orders/index.ts";
import { balanceLowEvent, orderEvent } from "./account-events.ts";
import { exhaustedEvent } from "./balance-exhausted.ts";
import { type RaisedEvent, recordEvent } from "./outbox.ts";
import { createWebhookRepository, type DeliveryRow, type EndpointRow, type Executor } from "./repository.ts";
import { parseWebhookUrl, type WebhookTarget } from "./target.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const endpointNotFound = () => notFound("Webhook endpoint not found.");
const iso = (value: Date | string) => new Date(value).toISOString();

function endpointView(row: EndpointRow, secret?: string): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    secret: secret ?? row.secret_last4,
    created_at: iso(row.created_at),
  };
}

function deliveryView(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event_id: row.event_id,
    event: row.type as WebhookEventType,
    status: row.status,
    attempts: Number(row.attempts),
    next_attempt_at: row.status === "pending" ? iso(row.next_attempt_at) : null,
    last_status_code: row.last_status_code === null ? null : Number(row.last_status_code),
    last_error: row.last_error,
    delivered_at: row.delivered_at ? iso(row.delivered_at) : null,
    created_at: iso(row.created_at),
  };
}

interface Deps {
  database: Database;
  appSecret: string;
  target: WebhookTarget;
  /** Called after an event was recorded, so this instance sends it without waiting for its poll. */
  raised: () => void;
}

/** Customers' webhook endpoints, and the one way events are raised for them. */
export function createWebhookService({ database, appSecret, target, raised }: Deps) {
  const repository = createWebhookRepository(database.db);
  const key = deriveKey(appSecret, "webhook-secret");

  async function ownEndpoint(userId: string, id: string): Promise<EndpointRow> {
    const row = UUID.test(id) ? await repository.find(userId, id) : undefined;
    if (!row) throw endpointNotFound();
    return row;
  }

  /** Raises an event; inside `executor`'s transaction when one is given (it commits with it). */
  async function emit(event: RaisedEvent, executor: Executor = database.db): Promise<string | null> {
    const id = await recordEvent(executor, event);
    if (id && executor === database.db) raised();
    return id;
  }

  return {
    emit,
    /** After an order changed (committed): raises order.paid / order.refunded; never throws. */
    orderChanged(order: Order, log: FastifyBaseLogger): void {
      const event = orderEvent(order);
      if (event)
        emit(event).catch((error) =>
          log.warn({ err: error, order: order.order_id }, "order webhook not raised"),
        );
    },
    /** After any balance change (the balance-alerts plugin's throttled check): balance.exhausted. */
    async balanceChanged(userId: string): Promise<void> {
      const event = await exhaustedEvent(database.db, userId);
      if (event) await emit(event);
    },
    /** The low-balance alert's crossing (one caller per crossing): balance.low. */
    balanceLow: (userId: string, balanceBytes: number, crossedAt: Date | string) =>
      emit(balanceLowEvent(userId, balanceBytes, new Date(crossedAt).toISOString())),
    openSecret: (sealed: string) => decryptSecret(key, sealed),

    async create(userId: string, request: CreateWebhookRequest): Promise<WebhookEndpoint> {
      const url = parseWebhookUrl(request.url);
      await target.vet(url);
      const secret = `whsec_${randomBytes(24).toString("hex")}`;
      const events = [...new Set(request.events)];
      const row = await repository.transaction(async (tx) => {
        await repository.lockUser(tx, userId);
        if ((await repository.count(tx, userId)) >= MAX_WEBHOOK_ENDPOINTS)
          throw new AppError(
            409,
            `An account can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints.`,
            "webhook_limit",
          );
        return repository.insert(tx, userId, {
          url: url.toString(),
          events,
          secret_enc: encryptSecret(key, secret),
          secret_last4: secret.slice(-4),
        });
      });
      return endpointView(row, secret);
    },

    list: async (userId: string) => (await repository.list(userId)).map((row) => endpointView(row)),

    async remove(userId: string, id: string): Promise<void> {
      if (!UUID.test(id) || !(await repository.remove(userId, id))) throw endpointNotFound();
    },

    /** A `ping` to this endpoint alone, whatever it subscribed to. */
    async test(userId: string, id: string): Promise<{ event_id: string }> {
      const endpoint = await ownEndpoint(userId, id);
      const eventId = await emit({
        userId,
        type: "ping",
        key: `ping:${randomBytes(8).toString("hex")}`,
        endpointId: endpoint.id,
        data: { endpoint_id: endpoint.id, message: "A test event from ByteToll." },
      });
      if (!eventId) throw endpointNotFound();
      return { event_id: eventId };
    },

    async deliveries(userId: string, id: string): Promise<WebhookDelivery[]> {
      const endpoint = await ownEndpoint(userId, id);
      return (await repository.deliveries(endpoint.id)).map(deliveryView);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
