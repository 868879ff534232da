import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import type { Order } from "./order.ts";

/** Prefix of every cached single order. */
export const TRANSACTION_QUERY_KEY = ["transactions", "one"] as const;

export const transactionQueryKey = (orderId: string) => [...TRANSACTION_QUERY_KEY, orderId] as const;

export const ORDER_ID_REQUIRED_MESSAGE = "Order ID is required";
export const FETCH_ORDER_FAILED_MESSAGE = "Failed to fetch transaction";

/**
 * GET /transactions/{orderId} (decision 003): 404 "Order not found" for someone else's order.
 * SPEC §7 errors: the server's own text (e.g. Unauthorized), else a generic one.
 */
export async function getTransaction(orderId: string, signal?: AbortSignal): Promise<Order> {
  if (!orderId) throw new Error(ORDER_ID_REQUIRED_MESSAGE);
  try {
    const body = await apiRequest<ApiSuccess<Order>>(`/transactions/${encodeURIComponent(orderId)}`, {
      signal,
    });
    return body.data;
  } catch (error) {
    if (signal?.aborted || (error instanceof ApiError && error.fromServer)) throw error;
    throw new Error(FETCH_ORDER_FAILED_MESSAGE);
  }
}

export const transactionQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: transactionQueryKey(orderId),
    queryFn: ({ signal }) => getTransaction(orderId, signal),
    // SPEC §8: the order fetch retries twice.
    retry: 2,
  });

export function useTransaction(orderId: string | null) {
  return useQuery({ ...transactionQueryOptions(orderId ?? ""), enabled: Boolean(orderId) });
}
