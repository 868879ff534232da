import { z } from "zod";
import { adminOrder } from "./admin.ts";

/** GET /admin/orders/{id}: the order and what happened to it, oldest first. POST
 * /admin/orders/{id}/mark-paid (sandbox orders only) and /expire (waiting orders only) answer
 * adminOrderResponse; anything else is 409. */

export const ORDER_EVENT_KINDS = [
  /** The order was made. */
  "created",
  /** Bytes reached the ledger (a purchase entry): a payment, whole or partial. */
  "credited",
  /** A refund or chargeback took bytes back. */
  "reversed",
  /** A signed provider callback that did not match the order: nothing was credited. */
  "rejected",
  /** A signed provider callback (Stripe event, NOWPayments IPN, sandbox payment) and its outcome. */
  "provider_event",
  /** An operator acted on it (audit log). */
  "operator",
  /** Last known status change without a row of its own (paid_at, expiry). */
  "status",
] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];

export const adminOrderEvent = z.object({
  at: z.string(),
  kind: z.enum(ORDER_EVENT_KINDS),
  /** One line a person reads. */
  summary: z.string(),
  /** The row behind it (a ledger entry, a rejection, an audit row, a provider event), as stored. */
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export type AdminOrderEvent = z.infer<typeof adminOrderEvent>;

/** The detail of a "provider_event": the provider's name for the callback, its id, what it did to
 * the order (credited, partially_paid, refunded, charged_back, failed, expired, held_by_deal,
 * unchanged, ignored_duplicate, rejected) and the amount it was about, in the currency's major
 * unit (`of`: the whole it is part of, for a partial payment or refund). */
export const adminOrderProviderEventDetail = z.object({
  provider: z.string(),
  event_type: z.string(),
  reference: z.string(),
  outcome: z.string(),
  amount: z.number().nullable().optional(),
  of: z.number().nullable().optional(),
  currency: z.string().nullable().optional(),
});
export type AdminOrderProviderEventDetail = z.infer<typeof adminOrderProviderEventDetail>;

export const adminOrderDetail = adminOrder.extend({ events: z.array(adminOrderEvent) });
export type AdminOrderDetail = z.infer<typeof adminOrderDetail>;
export const adminOrderDetailResponse = z.object({ success: z.literal(true), data: adminOrderDetail });

export const adminOrderResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: adminOrder,
});
export type AdminOrderResponse = z.infer<typeof adminOrderResponse>;
