import type { AdminDomainsPage } from "@bytetoll/contracts";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

export interface DomainsParams {
  page: number;
  perPage: number;
  search: string;
  verdict: string;
}

/** GET /admin/intelligence/domains: Intelligence's verdicts with their evidence and overrides. */
export function getDomains(params: DomainsParams, signal?: AbortSignal): Promise<AdminDomainsPage> {
  return apiRequest<AdminDomainsPage>("/admin/intelligence/domains", {
    query: {
      page: params.page,
      per_page: params.perPage,
      search: params.search || undefined,
      verdict: params.verdict || undefined,
    },
    signal,
  });
}

export const domainsQueryOptions = (params: DomainsParams) =>
  queryOptions({
    queryKey: adminQueryKey("domains", params),
    queryFn: ({ signal }) => getDomains(params, signal),
    placeholderData: keepPreviousData,
  });

export function useDomains(params: DomainsParams) {
  return useQuery(domainsQueryOptions(params));
}
