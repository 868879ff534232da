import type { ApiTokenResponse } from "@bytetoll/contracts";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

/** Under ["account"], which logout's cleanup removes. */
export const API_TOKEN_QUERY_KEY = ["account", "api-token"] as const;

/** GET /account/api-token: the personal API token (created on first read). */
export async function getApiToken(signal?: AbortSignal): Promise<string> {
  const body = await apiRequest<ApiTokenResponse>("/account/api-token", { signal });
  return body.data.token;
}

export const apiTokenQueryOptions = () =>
  queryOptions({
    queryKey: API_TOKEN_QUERY_KEY,
    queryFn: ({ signal }) => getApiToken(signal),
    staleTime: 5 * 60_000,
  });

/** POST /account/api-token/regenerate: the old token stops working at once. */
export async function regenerateApiToken(): Promise<string> {
  const body = await apiRequest<ApiTokenResponse>("/account/api-token/regenerate", { method: "POST" });
  return body.data.token;
}

export function useRegenerateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateApiToken,
    onSuccess: (token) => queryClient.setQueryData(API_TOKEN_QUERY_KEY, token),
  });
}
