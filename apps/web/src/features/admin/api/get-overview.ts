import type { Overview } from "@bytetoll/contracts";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

/** GET /admin/overview?days=: revenue, data sold and used, customers over the last `days` UTC days. */
export async function getOverview(days: number, signal?: AbortSignal): Promise<Overview> {
  const body = await apiRequest<ApiSuccess<Overview>>("/admin/overview", { query: { days }, signal });
  return body.data;
}

export const overviewQueryOptions = (days: number) =>
  queryOptions({
    queryKey: adminQueryKey("overview", days),
    queryFn: ({ signal }) => getOverview(days, signal),
    placeholderData: keepPreviousData,
  });

export function useOverview(days: number) {
  return useQuery(overviewQueryOptions(days));
}
