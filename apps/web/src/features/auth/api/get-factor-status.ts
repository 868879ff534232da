import type { FactorStatus } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

export const FACTOR_STATUS_QUERY_KEY = ["auth", "second-factor"] as const;

/** GET /auth/2fa: the authenticator app, the passkeys and the recovery codes left. */
export async function getFactorStatus(signal?: AbortSignal): Promise<FactorStatus> {
  return (await apiRequest<{ success: true; data: FactorStatus }>("/auth/2fa", { signal })).data;
}

export const factorStatusQueryOptions = () =>
  queryOptions({ queryKey: FACTOR_STATUS_QUERY_KEY, queryFn: ({ signal }) => getFactorStatus(signal) });

export const useFactorStatus = () => useQuery(factorStatusQueryOptions());
