import { useQueryClient } from "@tanstack/react-query";
import { Clock } from "lucide-react";
import { useEffect, useRef } from "react";
import { transactionQueryKey } from "../api/get-transaction.ts";
import type { Order } from "../api/order.ts";
import { formatTimeLeft, useTimeLeft } from "../hooks/use-time-left.ts";

export const EXPIRED_LABEL = "Expired";

/** docs/product.md#order-page: the time left to pay a waiting order, counting down each second;
 * at zero it says Expired and reads the order again (the server then shows it expired). */
export function PaymentDeadline({ order }: { order: Pick<Order, "order_id" | "expires_at"> }) {
  const left = useTimeLeft(order.expires_at);
  const queryClient = useQueryClient();
  const expired = left === 0;
  // Only a countdown that ran out here asks again; an order shown already past its time was read
  // just now.
  const counting = useRef(!expired);
  useEffect(() => {
    if (!expired || !counting.current) return;
    counting.current = false;
    void queryClient.invalidateQueries({ queryKey: transactionQueryKey(order.order_id) });
  }, [expired, order.order_id, queryClient]);
  return (
    <p className="flex items-center gap-2 text-sm text-slate-700" data-testid="payment-deadline">
      <Clock aria-hidden="true" className="size-4 text-slate-500" />
      {expired ? (
        <strong className="font-semibold text-red-700">{EXPIRED_LABEL}</strong>
      ) : (
        <>
          Time left to pay:
          <time
            dateTime={order.expires_at}
            className="font-mono font-semibold text-slate-900 tabular-nums"
            data-testid="time-left"
          >
            {formatTimeLeft(left)}
          </time>
        </>
      )}
    </p>
  );
}
