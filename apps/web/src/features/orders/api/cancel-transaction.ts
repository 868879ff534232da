import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { ACCOUNT_STATUS_QUERY_KEY } from "../../../lib/query-keys.ts";
import { transactionQueryKey } from "./get-transaction.ts";
import { TRANSACTIONS_QUERY_KEY } from "./get-transactions.ts";
import type { Order } from "./order.ts";

/** POST /transactions/{orderId}/cancel (docs/product.md#order-page): only a waiting order of the
 * caller's; anything else answers 409 with the reason. */
export async function cancelTransaction(orderId: string): Promise<Order> {
  const body = await apiRequest<ApiSuccess<Order>>(`/transactions/${encodeURIComponent(orderId)}/cancel`, {
    method: "POST",
  });
  return body.data;
}

/** Cancels the order; its page takes the answer as is and the lists are read again. */
export function useCancelTransaction(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelTransaction(orderId),
    onSuccess: (order) => {
      queryClient.setQueryData(transactionQueryKey(order.order_id), order);
      void queryClient.invalidateQueries({ queryKey: TRANSACTIONS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ACCOUNT_STATUS_QUERY_KEY });
    },
    // A 409 means the order changed meanwhile (paid, expired): show what it is now.
    onError: () => void queryClient.invalidateQueries({ queryKey: transactionQueryKey(orderId) }),
  });
}
