import type { CreateScopedToken, ScopedToken } from "@bytetoll/contracts";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

const TOKENS_QUERY_KEY = ["account", "api-tokens"] as const;

/** GET /api-tokens: never the tokens themselves. */
export const apiTokensQueryOptions = () =>
  queryOptions({
    queryKey: TOKENS_QUERY_KEY,
    queryFn: async ({ signal }) =>
      (await apiRequest<{ data: ScopedToken[] }>("/api-tokens", { signal })).data,
  });

/** POST /api-tokens: the answer is the only time the token is shown. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateScopedToken) =>
      (
        await apiRequest<{ data: ScopedToken & { token: string } }>("/api-tokens", {
          method: "POST",
          json: input,
        })
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOKENS_QUERY_KEY }),
  });
}

/** DELETE /api-tokens/{id}. */
export function useDeleteApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(`/api-tokens/${id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOKENS_QUERY_KEY }),
  });
}
