import type {
  MintedProxyListLink,
  ProxyListEntry,
  ProxyListLink,
  ProxyListLinkRequest,
  ProxyListQuery,
} from "@bytetoll/contracts";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";

/** Under ["account"], which logout's cleanup removes. */
export const PROXY_LIST_QUERY_KEY = ["account", "proxy-list"] as const;
export const PROXY_LIST_LINKS_QUERY_KEY = ["account", "proxy-list-links"] as const;

/** GET /credentials/proxy-list as json: the page formats the lines itself, as the server would. */
export async function getProxyList(query: ProxyListQuery, signal?: AbortSignal): Promise<ProxyListEntry[]> {
  const body = await apiRequest<ApiSuccess<ProxyListEntry[]>>("/credentials/proxy-list", {
    query: { ...query, format: "json" },
    signal,
  });
  return body.data;
}

export const proxyListQueryOptions = (query: ProxyListQuery) =>
  queryOptions({
    queryKey: [...PROXY_LIST_QUERY_KEY, query],
    queryFn: ({ signal }) => getProxyList(query, signal),
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const proxyListLinksQueryOptions = () =>
  queryOptions({
    queryKey: PROXY_LIST_LINKS_QUERY_KEY,
    queryFn: async ({ signal }) =>
      (await apiRequest<ApiSuccess<ProxyListLink[]>>("/credentials/proxy-list/links", { signal })).data,
  });

export function useMintProxyListLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: ProxyListLinkRequest) =>
      (
        await apiRequest<ApiSuccess<MintedProxyListLink>>("/credentials/proxy-list/links", {
          method: "POST",
          json: request,
        })
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PROXY_LIST_LINKS_QUERY_KEY }),
  });
}

export function useRevokeProxyListLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(`/credentials/proxy-list/links/${id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PROXY_LIST_LINKS_QUERY_KEY }),
  });
}
