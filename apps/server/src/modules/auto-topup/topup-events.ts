import { bytesToGb, centsToUsd } from "@bytetoll/contracts";
import type { OrderRow } from "../orders/index.ts";
import type { RaisedEvent } from "../webhooks/index.ts";

/** A top-up was charged and its data credited. */
export function topupSucceededEvent(order: OrderRow): RaisedEvent {
  return {
    userId: order.userId,
    type: "topup.succeeded",
    key: `topup.succeeded:${order.id}`,
    data: {
      order_id: order.id,
      amount_usd: centsToUsd(order.amountCents),
      gb: bytesToGb(order.bytes),
      balance_gb_after: order.balanceBytesAfter === null ? null : bytesToGb(order.balanceBytesAfter),
    },
  };
}

/** A top-up's charge failed (`order`), or none was made because of the monthly cap (`crossing`
 * tells one fall below the threshold from the next). */
export function topupFailedEvent(
  userId: string,
  failure: {
    order: OrderRow | null;
    crossing: string;
    amountCents: number;
    reason: "card_declined" | "monthly_cap_reached";
    message: string;
    failures: number;
    enabled: boolean;
  },
): RaisedEvent {
  return {
    userId,
    type: "topup.failed",
    key: failure.order ? `topup.failed:${failure.order.id}` : `topup.failed:cap:${failure.crossing}`,
    data: {
      order_id: failure.order?.id ?? null,
      amount_usd: centsToUsd(failure.amountCents),
      reason: failure.reason,
      message: failure.message,
      failures_in_a_row: failure.failures,
      auto_topup_enabled: failure.enabled,
    },
  };
}
