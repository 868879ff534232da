import type { ChoosePaymentRequest } from "@bytetoll/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { CREATE_FAILED_MESSAGE } from "./create-transaction.ts";
import { transactionQueryKey } from "./get-transaction.ts";
import { TRANSACTIONS_QUERY_KEY } from "./get-transactions.ts";
import type { Order } from "./order.ts";

/**
 * POST /transactions/{orderId}/payment (decision 003): how to pay an order made at sign-in, which
 * has no payment method yet. The server's message when it gave one (e.g. 409 "This order already
 * has a payment method."), else the same fallback as creating an order.
 */
export async function choosePayment(orderId: string, request: ChoosePaymentRequest): Promise<Order> {
  try {
    const body = await apiRequest<ApiSuccess<Order>>(`/transactions/${encodeURIComponent(orderId)}/payment`, {
      method: "POST",
      json: request,
    });
    return body.data;
  } catch (error) {
    if (error instanceof ApiError && error.fromServer) throw error;
    throw new Error(CREATE_FAILED_MESSAGE);
  }
}

export function useChoosePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, request }: { orderId: string; request: ChoosePaymentRequest }) =>
      choosePayment(orderId, request),
    onSuccess: (order) => {
      // The order view on screen switches to the priced order at once (realtime may lag).
      queryClient.setQueryData(transactionQueryKey(order.order_id), order);
      void queryClient.invalidateQueries({ queryKey: TRANSACTIONS_QUERY_KEY });
    },
  });
}
