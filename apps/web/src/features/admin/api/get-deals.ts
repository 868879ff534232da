import type { AdminDeal } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

/** GET /admin/deals: every deal, newest first, with each one's progress. */
export async function getDeals(signal?: AbortSignal): Promise<AdminDeal[]> {
  const body = await apiRequest<ApiSuccess<AdminDeal[]>>("/admin/deals", { signal });
  return body.data;
}

export const DEALS_QUERY_KEY = adminQueryKey("deals");

export const dealsQueryOptions = () =>
  queryOptions({ queryKey: DEALS_QUERY_KEY, queryFn: ({ signal }) => getDeals(signal) });

export function useDeals() {
  return useQuery(dealsQueryOptions());
}
