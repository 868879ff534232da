import { z } from "zod";
import { successEnvelope } from "./envelope.ts";

/** Every event a webhook endpoint can subscribe to (docs/product.md#webhooks). `ping` is what the
 * test button sends; subscribing to it is allowed but not needed for the test. */
export const WEBHOOK_EVENT_TYPES = [
  "order.paid",
  "order.refunded",
  "balance.low",
  "balance.exhausted",
  "subuser.limit_reached",
  "topup.succeeded",
  "topup.failed",
  "deal.activated",
  "ping",
] as const;
export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof webhookEventType>;

/** At most this many endpoints per account. */
export const MAX_WEBHOOK_ENDPOINTS = 5;
/** The signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const WEBHOOK_SIGNATURE_HEADER = "ByteToll-Signature";

export const createWebhookRequest = z.object({
  url: z.string().trim().min(1).max(2048),
  events: z.array(webhookEventType).min(1).max(WEBHOOK_EVENT_TYPES.length),
});
export type CreateWebhookRequest = z.infer<typeof createWebhookRequest>;

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventType),
  /** The whole secret only in the answer to its creation; afterwards its last 4 characters. */
  secret: z.string(),
  created_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export const webhookEndpointResponse = successEnvelope(webhookEndpointSchema);
export const webhookEndpointListResponse = successEnvelope(z.array(webhookEndpointSchema));

export const webhookDeliverySchema = z.object({
  id: z.string(),
  event_id: z.string(),
  event: webhookEventType,
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number().int(),
  /** When it is tried next; null once delivered or given up. */
  next_attempt_at: z.string().nullable(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListResponse = successEnvelope(z.array(webhookDeliverySchema));

/** What a receiver gets as the request body. */
export const webhookPayloadSchema = z.object({
  id: z.string(),
  type: webhookEventType,
  created: z.number().int(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
