import { ORDER_UPDATED_EVENT, ordersChannel, orderUpdatedEvent } from "@bytetoll/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { ACCOUNT_STATUS_QUERY_KEY } from "../../../lib/query-keys.ts";
import { useRealtimeEvent } from "../../../lib/realtime/use-realtime-connection.ts";
import { TRANSACTION_QUERY_KEY, transactionQueryKey } from "../api/get-transaction.ts";
import { TRANSACTIONS_QUERY_KEY } from "../api/get-transactions.ts";
import type { Order } from "../api/order.ts";

/** The event's order, when the payload is the contracts' shape (anything else is ignored). */
function orderOf(payload: unknown): Order | null {
  const parsed = orderUpdatedEvent.safeParse(payload);
  return parsed.success ? parsed.data.topup_transaction : null;
}

/**
 * Decision 003: every change of the user's orders arrives on topup-transactions.{userId}. The
 * order's cache entry takes the new state as is; balance and history are read again because a
 * payment changes both.
 */
export function useLiveOrderUpdates(userId: string | null): void {
  const queryClient = useQueryClient();
  const onUpdate = useCallback(
    (payload: unknown) => {
      const order = orderOf(payload);
      if (!order) return;
      // A read still in flight (the one after joining, say) started before this change: its
      // answer would be older, so it is dropped.
      const key = transactionQueryKey(order.order_id);
      void queryClient.cancelQueries({ queryKey: key }).then(() => queryClient.setQueryData(key, order));
      void queryClient.invalidateQueries({ queryKey: ACCOUNT_STATUS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: TRANSACTIONS_QUERY_KEY });
    },
    [queryClient],
  );
  // Joined (or joined again after a drop): a payment confirmed before then was never pushed here.
  const onJoined = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: TRANSACTION_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: TRANSACTIONS_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: ACCOUNT_STATUS_QUERY_KEY });
  }, [queryClient]);
  useRealtimeEvent(userId ? ordersChannel(userId) : null, ORDER_UPDATED_EVENT, onUpdate, onJoined);
}
