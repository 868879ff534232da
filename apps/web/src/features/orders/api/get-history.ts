import type { HistoryPage } from "@bytetoll/contracts";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { HISTORY_PAGE_SIZE, TRANSACTIONS_QUERY_KEY } from "./get-transactions.ts";

/** Under the orders list's prefix: whatever refreshes the orders (a new order, a live status
 * change, a cancel) refreshes the history too. */
export const HISTORY_QUERY_KEY = [...TRANSACTIONS_QUERY_KEY, "history"] as const;

/** GET /history (docs/product.md#transaction-history): one page of the caller's orders and other
 * balance changes (free GB, adjustments, deposits, refunds), newest first. */
export function getHistory(page: number, signal?: AbortSignal): Promise<HistoryPage> {
  return apiRequest<HistoryPage>("/history", { query: { page, per_page: HISTORY_PAGE_SIZE }, signal });
}

export const historyQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...HISTORY_QUERY_KEY, { page }],
    queryFn: ({ signal }) => getHistory(page, signal),
    // docs/product.md#formats-and-limits: history stale after 30 s.
    staleTime: 30_000,
  });

export function useHistory(page: number) {
  // Keeps the current page on screen while the next one loads, so the list does not jump.
  return useQuery({ ...historyQueryOptions(page), placeholderData: keepPreviousData });
}
