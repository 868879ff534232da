import type { Receipt } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { retryOrder } from "./get-transaction.ts";

/** GET /transactions/{orderId}/receipt: a paid order of the caller's and who issues its receipt;
 * 404 for anyone else's order, 409 for one not paid. */
export async function getReceipt(orderId: string, signal?: AbortSignal): Promise<Receipt> {
  const body = await apiRequest<ApiSuccess<Receipt>>(`/transactions/${encodeURIComponent(orderId)}/receipt`, {
    signal,
  });
  return body.data;
}

export const receiptQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: ["transactions", "receipt", orderId] as const,
    queryFn: ({ signal }) => getReceipt(orderId, signal),
    retry: retryOrder,
  });

export function useReceipt(orderId: string) {
  return useQuery(receiptQueryOptions(orderId));
}
