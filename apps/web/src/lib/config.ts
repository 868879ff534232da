import type { PublicConfig, PublicConfigResponse } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest, SKIP_AUTH } from "./api-client.ts";

/** docs/product.md#routes-and-layout/§9: the dashboard price, used until /config answers. */
export const FALLBACK_PRICE_PER_GB_USD = 3;

/** GET /config (decision 001): operator-configured numbers and links, public. */
export async function getConfig(signal?: AbortSignal): Promise<PublicConfig> {
  const body = await apiRequest<PublicConfigResponse>("/config", { headers: SKIP_AUTH, signal });
  return body.data;
}

export const configQueryOptions = () =>
  queryOptions({
    queryKey: ["config"],
    queryFn: ({ signal }) => getConfig(signal),
    // Operator configuration changes only with a restart; one read per visit is enough.
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useConfig() {
  return useQuery(configQueryOptions());
}
