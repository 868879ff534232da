import type { Deal } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, type ApiSuccess, apiRequest, SKIP_AUTH } from "../../../lib/api-client.ts";
import { DEALS_QUERY_KEY } from "./get-latest-deals.ts";

export const dealQueryKey = (id: string) => [...DEALS_QUERY_KEY, "one", id] as const;

/** GET /deals/{id} (the encoded id); a deal that does not exist is null, not an error. */
export async function getDeal(id: string, signal?: AbortSignal): Promise<Deal | null> {
  try {
    const body = await apiRequest<ApiSuccess<Deal>>(`/deals/${encodeURIComponent(id)}`, {
      signal,
      headers: SKIP_AUTH,
    });
    return body.data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const dealQueryOptions = (id: string) =>
  queryOptions({
    queryKey: dealQueryKey(id),
    queryFn: ({ signal }) => getDeal(id, signal),
    staleTime: 5 * 60 * 1000,
  });

/** One deal by its encoded id (null id: nothing to read). */
export function useDeal(id: string | null) {
  return useQuery({ ...dealQueryOptions(id ?? ""), enabled: id !== null });
}
