import type { AbuseLookupQuery, AbuseLookupResponse } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

export type AbuseLookup = AbuseLookupResponse["data"];

/** GET /admin/abuse-lookup: who reached a domain or address in a window of at most 31 days. */
export async function getAbuseLookup(query: AbuseLookupQuery, signal?: AbortSignal): Promise<AbuseLookup> {
  const search = new URLSearchParams(query);
  const body = await apiRequest<AbuseLookupResponse>(`/admin/abuse-lookup?${search}`, { signal });
  return body.data;
}

export const abuseLookupQueryOptions = (query: AbuseLookupQuery | null) =>
  queryOptions({
    queryKey: adminQueryKey("abuse-lookup", query),
    queryFn: ({ signal }) => getAbuseLookup(query as AbuseLookupQuery, signal),
    enabled: query !== null,
    retry: false,
  });

/** Runs once the form was sent (`query` null: not yet). */
export function useAbuseLookup(query: AbuseLookupQuery | null) {
  return useQuery(abuseLookupQueryOptions(query));
}
