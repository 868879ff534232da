import type { ProxyServer, ProxyServerResponse } from "@bytetoll/contracts";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest, SKIP_AUTH } from "../../../lib/api-client.ts";

/** GET /gateway: host, fixed IP and ports of the proxy (operator configuration). */
export async function getProxyServer(signal?: AbortSignal): Promise<ProxyServer> {
  const body = await apiRequest<ProxyServerResponse>("/gateway", { headers: SKIP_AUTH, signal });
  return body.data;
}

export const proxyServerQueryOptions = () =>
  queryOptions({
    queryKey: ["gateway"],
    queryFn: ({ signal }) => getProxyServer(signal),
    // Changes only with a restart of the server.
    staleTime: Number.POSITIVE_INFINITY,
  });
