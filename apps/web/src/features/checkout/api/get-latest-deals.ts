import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";

/** The SPEC §3 deal fields the dashboard list shows. */
export interface DealSummary {
  id: number;
  deal_type: string;
  deal_title: string;
  deal_price: number;
  status: string;
}

/** GET /deals/latestv2; null when the server has no deals endpoint yet (404), so nothing is shown. */
export async function getLatestDeals(signal?: AbortSignal): Promise<DealSummary[] | null> {
  try {
    const body = await apiRequest<ApiSuccess<DealSummary[]>>("/deals/latestv2", { signal });
    return Array.isArray(body.data) ? body.data : [];
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const latestDealsQueryOptions = () =>
  queryOptions({
    queryKey: ["deals", "latest"],
    queryFn: ({ signal }) => getLatestDeals(signal),
    // SPEC §9: deals cached 5 min.
    staleTime: 5 * 60 * 1000,
  });

export function useLatestDeals() {
  return useQuery(latestDealsQueryOptions());
}
