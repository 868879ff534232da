import { bytesToGb } from "@bytetoll/contracts";
import type { Order } from "../orders/index.ts";
import type { RaisedEvent } from "./outbox.ts";

/** The event an order's change raises, if any: paid in full, or refunded. Keyed by the order, so
 * a replayed provider callback raises nothing new. */
export function orderEvent(order: Order): RaisedEvent | null {
  const type =
    order.payment_status === "paid"
      ? "order.paid"
      : order.payment_status === "refunded"
        ? "order.refunded"
        : null;
  if (!type) return null;
  return {
    userId: order.user_id,
    type,
    key: `${type}:${order.order_id}`,
    data: {
      order_id: order.order_id,
      amount_usd: order.amount_usd,
      gb: order.gb,
      method: order.method,
      paid_at: order.paid_at,
      balance_gb_after: order.balance_gb_after,
      deal_id: order.deal_id,
    },
  };
}

/** A sub-user reached its data limit in the period that started on `periodStart` (a date): raised
 * once per sub-user, period and limit (a raised limit reached again is a new event). */
export function subuserLimitReachedEvent(
  userId: string,
  subuser: { id: string; label: string; limitBytes: number; period: string },
  periodStart: string,
): RaisedEvent {
  return {
    userId,
    type: "subuser.limit_reached",
    key: `subuser.limit_reached:${subuser.id}:${periodStart}:${subuser.limitBytes}`,
    data: {
      subuser_id: subuser.id,
      label: subuser.label,
      limit_gb: bytesToGb(subuser.limitBytes),
      limit_bytes: subuser.limitBytes,
      limit_period: subuser.period,
      period_start: periodStart,
    },
  };
}

/** A group buy the customer joined reached its target (raised in the activation's transaction). */
export function dealActivatedEvent(userId: string, deal: { id: string; title: string }): RaisedEvent {
  return {
    userId,
    type: "deal.activated",
    key: `deal.activated:${deal.id}`,
    data: { deal_id: deal.id, title: deal.title },
  };
}

/** The balance fell below the account's alert threshold; `crossedAt` (when the alert's flag was
 * set) tells one crossing from the next. */
export function balanceLowEvent(userId: string, balanceBytes: number, crossedAt: string): RaisedEvent {
  return {
    userId,
    type: "balance.low",
    key: `balance.low:${crossedAt}`,
    data: { balance_gb: bytesToGb(balanceBytes), balance_bytes: balanceBytes },
  };
}
