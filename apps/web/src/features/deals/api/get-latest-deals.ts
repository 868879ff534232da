import type { Deal } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest, SKIP_AUTH } from "../../../lib/api-client.ts";

export const DEALS_QUERY_KEY = ["deals"] as const;
export const LATEST_DEALS_QUERY_KEY = [...DEALS_QUERY_KEY, "latest"] as const;

/** How often the list is read again while realtime updates are not arriving. */
export const DEALS_POLL_MS = 30_000;

/** GET /deals/latestv2: live and pending deals, and those that ended in the last 7 days. */
export async function getLatestDeals(signal?: AbortSignal): Promise<Deal[]> {
  const body = await apiRequest<ApiSuccess<Deal[]>>("/deals/latestv2", { signal, headers: SKIP_AUTH });
  return Array.isArray(body.data) ? body.data : [];
}

/** Cached 5 min; `poll` reads it every 30 s (while the realtime connection is not up). */
export const latestDealsQueryOptions = (poll = false) =>
  queryOptions({
    queryKey: LATEST_DEALS_QUERY_KEY,
    queryFn: ({ signal }) => getLatestDeals(signal),
    staleTime: 5 * 60 * 1000,
    // deal.updated is only heard while the list is on screen: coming back reads what was missed
    // (a purchase made on checkout moved the progress meanwhile).
    refetchOnMount: "always",
    refetchInterval: poll ? DEALS_POLL_MS : false,
  });

export function useLatestDeals(poll: boolean) {
  return useQuery(latestDealsQueryOptions(poll));
}
