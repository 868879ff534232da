import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import type { PaymentMethod, TransactionPage } from "./order.ts";

/** docs/product.md#formats-and-limits: history page size. */
export const HISTORY_PAGE_SIZE = 10;

/** Prefix of every cached history page; new orders and live updates invalidate them all. */
export const TRANSACTIONS_QUERY_KEY = ["transactions", "list"] as const;

export interface TransactionsQuery {
  page: number;
  source?: PaymentMethod;
}

/** GET /transactions (decision 003): one page of the caller's orders, newest first. */
export async function getTransactions(
  query: TransactionsQuery,
  signal?: AbortSignal,
): Promise<TransactionPage> {
  return apiRequest<TransactionPage>("/transactions", {
    query: { page: query.page, per_page: HISTORY_PAGE_SIZE, source: query.source },
    signal,
  });
}

export const transactionsQueryOptions = (query: TransactionsQuery) =>
  queryOptions({
    queryKey: [...TRANSACTIONS_QUERY_KEY, query],
    queryFn: ({ signal }) => getTransactions(query, signal),
    // docs/product.md#formats-and-limits: history stale after 30 s.
    staleTime: 30_000,
  });

export function useTransactions(query: TransactionsQuery) {
  // Keeps the current page on screen while the next one loads, so the table does not jump.
  return useQuery({ ...transactionsQueryOptions(query), placeholderData: keepPreviousData });
}
