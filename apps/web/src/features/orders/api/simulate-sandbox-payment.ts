import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { ACCOUNT_STATUS_QUERY_KEY } from "../../../lib/query-keys.ts";
import { transactionQueryKey } from "./get-transaction.ts";
import { TRANSACTIONS_QUERY_KEY } from "./get-transactions.ts";

/** POST /dev/orders/{orderId}/pay: the sandbox records the whole amount as paid, as a real payment
 * would (only sandbox orders; the route does not exist in production). */
export function useSimulateSandboxPayment(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(`/dev/orders/${encodeURIComponent(orderId)}/pay`, { method: "POST" }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: transactionQueryKey(orderId) });
      void queryClient.invalidateQueries({ queryKey: TRANSACTIONS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ACCOUNT_STATUS_QUERY_KEY });
    },
  });
}
