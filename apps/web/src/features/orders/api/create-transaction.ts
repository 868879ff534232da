import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { ACCOUNT_STATUS_QUERY_KEY } from "../../../lib/query-keys.ts";
import { transactionQueryKey } from "./get-transaction.ts";
import { TRANSACTIONS_QUERY_KEY } from "./get-transactions.ts";
import type { CreateTransactionRequest, Order } from "./order.ts";

export const CREATE_FAILED_MESSAGE = "Failed to create transaction";

/** POST /transactions (decision 003): the server's message when it gave one, else docs/product.md#api-calls's fallback. */
export async function createTransaction(request: CreateTransactionRequest): Promise<Order> {
  try {
    const body = await apiRequest<ApiSuccess<Order>>("/transactions", { method: "POST", json: request });
    return body.data;
  } catch (error) {
    if (error instanceof ApiError && error.fromServer) throw error;
    throw new Error(CREATE_FAILED_MESSAGE);
  }
}

export function useCreateTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTransaction,
    onSuccess: (order) => {
      // The order view opens next: start it from what the server just answered.
      queryClient.setQueryData(transactionQueryKey(order.order_id), order);
      // docs/product.md#api-calls: a new order refreshes the purchase history and the GB balance.
      void queryClient.invalidateQueries({ queryKey: TRANSACTIONS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ACCOUNT_STATUS_QUERY_KEY });
    },
  });
}
