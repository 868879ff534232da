import type { HostnamesResponse, RoutingService } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, apiRequest, NETWORK_ERROR_MESSAGE } from "../../../lib/api-client.ts";

/** What the hostname list says when the answer is not a usable list. */
export const HOSTNAMES_UNEXPECTED_RESPONSE = "Unauthorized or unexpected response";
export const HOSTNAMES_SUCCESS_FALSE = "API returned success: false";

/** Under ["account"], which logout's cleanup removes. */
export const HOSTNAMES_QUERY_KEY = ["account", "intelligence", "hostnames"] as const;

/** A saved host name, and the operator's decision for it (null: none). */
export interface HostnameEntry {
  hostname: string;
  override: RoutingService | null;
}

/** GET /settings/hostnames: the host names the user asked Intelligence to learn. A refused token
 * or a non-JSON body is "Unauthorized or unexpected response", `success: false` the other message. */
export async function getHostnames(signal?: AbortSignal): Promise<HostnameEntry[]> {
  let body: Partial<HostnamesResponse> & { success?: unknown };
  try {
    body = await apiRequest("/settings/hostnames", { signal });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 0) throw new Error(NETWORK_ERROR_MESSAGE);
    const refused = error.status === 401 || error.status === 403 || !error.fromServer;
    throw new Error(refused ? HOSTNAMES_UNEXPECTED_RESPONSE : HOSTNAMES_SUCCESS_FALSE);
  }
  if (body.success !== true) throw new Error(HOSTNAMES_SUCCESS_FALSE);
  if (!Array.isArray(body.data?.hostnames)) throw new Error(HOSTNAMES_UNEXPECTED_RESPONSE);
  return body.data.hostnames.map((entry) => ({ hostname: entry.hostname, override: entry.override ?? null }));
}

const names = (entries: HostnameEntry[]) => entries.map((entry) => entry.hostname);
const overridesOf = (entries: HostnameEntry[]) =>
  new Map(entries.flatMap((entry) => (entry.override ? [[entry.hostname, entry.override] as const] : [])));

export const hostnamesQueryOptions = () =>
  queryOptions({
    queryKey: HOSTNAMES_QUERY_KEY,
    queryFn: ({ signal }) => getHostnames(signal),
    refetchOnWindowFocus: true,
  });

/** The saved host names, as the form edits them. */
export function useHostnames() {
  return useQuery({ ...hostnamesQueryOptions(), select: names });
}

/** The operator's decisions for saved host names that have one. */
export function useHostnameOverrides() {
  return useQuery({ ...hostnamesQueryOptions(), select: overridesOf });
}
