import type { Allowlist, AllowlistResponse } from "@bytetoll/contracts";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

/** Under ["account"], which logout's cleanup removes. */
export const ALLOWLIST_QUERY_KEY = ["account", "allowlist"] as const;

/** GET /settings/allowlist: the addresses admitted without credentials, and the caller's own. */
export async function getAllowlist(signal?: AbortSignal): Promise<Allowlist> {
  const body = await apiRequest<AllowlistResponse>("/settings/allowlist", { signal });
  return body.data;
}

/** While a proof link is live, how often the list is read again: the link is opened on another
 * machine, and the entry turns active here without a reload. */
export const PROOF_POLL_MS = 3_000;

export const allowlistQueryOptions = () =>
  queryOptions({
    queryKey: ALLOWLIST_QUERY_KEY,
    queryFn: ({ signal }) => getAllowlist(signal),
    refetchInterval: (query) =>
      query.state.data?.pending.some((entry) => entry.proof_url !== null) ? PROOF_POLL_MS : false,
  });

/** POST /settings/allowlist: replaces the whole list; the server answers with it normalised. */
export async function saveAllowlist(ips: string[]): Promise<Allowlist> {
  const body = await apiRequest<AllowlistResponse>("/settings/allowlist", { method: "POST", json: { ips } });
  return body.data;
}

export function useSaveAllowlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAllowlist,
    onSuccess: (allowlist) => queryClient.setQueryData(ALLOWLIST_QUERY_KEY, allowlist),
  });
}
