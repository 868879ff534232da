import type { CreateSubuser, Subuser, UpdateSubuser } from "@bytetoll/contracts";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

/** Under ["account"], which logout's cleanup removes. */
export const SUBUSERS_QUERY_KEY = ["account", "subusers"] as const;

/** GET /subusers: every sub-user with this period's use. */
export const subusersQueryOptions = () =>
  queryOptions({
    queryKey: SUBUSERS_QUERY_KEY,
    queryFn: async ({ signal }) => (await apiRequest<{ data: Subuser[] }>("/subusers", { signal })).data,
    // Pushed changes (useLiveSubusers) move it at once; this only covers a dropped socket.
    refetchInterval: 30_000,
  });

function useSubuserMutation<T>(call: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SUBUSERS_QUERY_KEY }),
  });
}

/** POST /subusers */
export const useCreateSubuser = () =>
  useSubuserMutation((request: CreateSubuser) =>
    apiRequest<{ data: Subuser }>("/subusers", { method: "POST", json: request }),
  );

/** PATCH /subusers/{id} */
export const useUpdateSubuser = (id: string) =>
  useSubuserMutation((changes: UpdateSubuser) =>
    apiRequest(`/subusers/${id}`, { method: "PATCH", json: changes }),
  );

/** POST /subusers/{id}/password: the old password stops working within a second. */
export const useRegenerateSubuserPassword = (id: string) =>
  useSubuserMutation((_: undefined) => apiRequest(`/subusers/${id}/password`, { method: "POST" }));

/** DELETE /subusers/{id} */
export const useDeleteSubuser = (id: string) =>
  useSubuserMutation((_: undefined) => apiRequest(`/subusers/${id}`, { method: "DELETE" }));
