import type { AccountStatus } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { DEFAULT_RETRIES } from "../../../lib/query-client.ts";
import { ACCOUNT_STATUS_QUERY_KEY } from "../../../lib/query-keys.ts";

/** GET /account/status (decision 003): the caller's balance. */
export async function getAccountStatus(signal?: AbortSignal): Promise<AccountStatus> {
  const body = await apiRequest<ApiSuccess<AccountStatus>>("/account/status", { signal });
  return body.data;
}

/** docs/product.md#messages: a refused token will not become valid by asking again; anything else gets 3 more tries. */
export function retryBalance(failureCount: number, error: Error): boolean {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return false;
  return failureCount < DEFAULT_RETRIES;
}

export const accountStatusQueryOptions = () =>
  queryOptions({
    queryKey: ACCOUNT_STATUS_QUERY_KEY,
    queryFn: ({ signal }) => getAccountStatus(signal),
    // docs/product.md#formats-and-limits: account balance stale after 30 s.
    staleTime: 30_000,
    retry: retryBalance,
  });

export function useAccountStatus() {
  return useQuery(accountStatusQueryOptions());
}
