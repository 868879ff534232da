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
 * docs/product.md#api-calls errors: the server's own text (e.g. Unauthorized), else a generic one.
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

/**
 * docs/product.md#messages: the order fetch retries twice. A 4xx (not found, not yours, signed out) is the server's
 * considered answer, so it is shown at once instead of after two more identical refusals.
 */
export function retryOrder(failureCount: number, error: Error): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export const transactionQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: transactionQueryKey(orderId),
    queryFn: ({ signal }) => getTransaction(orderId, signal),
    retry: retryOrder,
  });

export function useTransaction(orderId: string | null) {
  return useQuery({ ...transactionQueryOptions(orderId ?? ""), enabled: Boolean(orderId) });
}
