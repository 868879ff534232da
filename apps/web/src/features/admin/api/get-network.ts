import type { AdminNetworkResponse } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

export type NetworkView = AdminNetworkResponse["data"];

/** Instances write a heartbeat every few seconds; an open page follows them at that pace. */
export const NETWORK_REFRESH_MS = 5_000;

/** GET /admin/network: live gateway instances and each upstream's last hour. */
export async function getNetwork(signal?: AbortSignal): Promise<NetworkView> {
  const body = await apiRequest<AdminNetworkResponse>("/admin/network", { signal });
  return body.data;
}

export const networkQueryOptions = () =>
  queryOptions({
    queryKey: adminQueryKey("network"),
    queryFn: ({ signal }) => getNetwork(signal),
    refetchInterval: NETWORK_REFRESH_MS,
  });

export function useNetwork() {
  return useQuery(networkQueryOptions());
}
