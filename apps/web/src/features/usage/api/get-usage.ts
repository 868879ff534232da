import type {
  UsageDayRow,
  UsageDomainRow,
  UsageGrouping,
  UsageMetrics,
  UsagePeriod,
  UsageSubuserRow,
} from "@bytetoll/contracts";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, apiRequest, NETWORK_ERROR_MESSAGE } from "../../../lib/api-client.ts";

/** docs/product.md#validation/§8: what the Usage cards say when the answer is not a usable usage list. */
export const USAGE_UNEXPECTED_RESPONSE = "Unauthorized or unexpected response";
export const USAGE_SUCCESS_FALSE = "API returned success: false";

/** How often an open Usage page asks again, so new traffic shows within seconds of its flush. */
export const USAGE_REFRESH_MS = 5_000;

export interface UsageRowsByGrouping {
  day: UsageDayRow[];
  domain: UsageDomainRow[];
  proxy_type: UsageMetrics[];
  subuser: UsageSubuserRow[];
}

/**
 * GET /proxies/usage (docs/product.md#api-calls, decision 005). The answer must be JSON with success true and an
 * array in data: a refused token or a non-JSON body is "Unauthorized or unexpected response", a
 * JSON `success: false` is "API returned success: false" (docs/product.md#validation).
 */
export async function getUsage<G extends UsageGrouping>(
  groupBy: G,
  days: UsagePeriod,
  others: boolean,
  signal?: AbortSignal,
  /** One sub-user's id, "main" for the main credentials, or undefined for all. */
  subuser?: string,
): Promise<UsageRowsByGrouping[G]> {
  let body: { success?: unknown; data?: unknown };
  try {
    body = await apiRequest("/proxies/usage", {
      query: { group_by: groupBy, days, others: groupBy === "domain" ? others : undefined, subuser },
      signal,
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 0) throw new Error(NETWORK_ERROR_MESSAGE);
    const refused = error.status === 401 || error.status === 403 || !error.fromServer;
    throw new Error(refused ? USAGE_UNEXPECTED_RESPONSE : USAGE_SUCCESS_FALSE);
  }
  if (body.success !== true) throw new Error(USAGE_SUCCESS_FALSE);
  if (!Array.isArray(body.data)) throw new Error(USAGE_UNEXPECTED_RESPONSE);
  return body.data as UsageRowsByGrouping[G];
}

/** Starts with ["account"] so logout's cleanup of the account's cached data removes it too. */
export const usageQueryKey = (groupBy: UsageGrouping, days: UsagePeriod, others: boolean, subuser?: string) =>
  ["account", "usage", groupBy, days, others, subuser ?? "all"] as const;

export const usageQueryOptions = <G extends UsageGrouping>(
  groupBy: G,
  days: UsagePeriod,
  others = false,
  subuser?: string,
) =>
  queryOptions({
    queryKey: usageQueryKey(groupBy, days, others, subuser),
    queryFn: ({ signal }) => getUsage(groupBy, days, others, signal, subuser),
    // A new period keeps the old chart on screen until its numbers arrive instead of flashing.
    placeholderData: keepPreviousData,
    refetchInterval: USAGE_REFRESH_MS,
    // The same message again and again is no better than once; a refused token stays refused.
    retry: false,
  });

export function useUsage<G extends UsageGrouping>(
  groupBy: G,
  days: UsagePeriod,
  others = false,
  subuser?: string,
) {
  return useQuery(usageQueryOptions(groupBy, days, others, subuser));
}
