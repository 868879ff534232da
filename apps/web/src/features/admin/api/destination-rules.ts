import type {
  CreateDestinationRule,
  DestinationRule,
  DestinationRuleListResponse,
  MessageResponse,
  UpdateDestinationRule,
} from "@bytetoll/contracts";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

/** GET /admin/destination-rules: every rule, in the order the gateway reads them. */
export async function getDestinationRules(signal?: AbortSignal): Promise<DestinationRule[]> {
  const body = await apiRequest<DestinationRuleListResponse>("/admin/destination-rules", { signal });
  return body.data;
}

export const destinationRulesQueryOptions = () =>
  queryOptions({
    queryKey: adminQueryKey("destination-rules"),
    queryFn: ({ signal }) => getDestinationRules(signal),
  });

export function useDestinationRules() {
  return useQuery(destinationRulesQueryOptions());
}

/** A draft as the form holds it: POST takes it as it is, PATCH changes every field to it. */
export type DestinationRuleDraft = Omit<CreateDestinationRule, "domain" | "ports" | "customer_id"> & {
  domain: string | null;
  ports: string | null;
  customer_id: string | null;
};

/** POST /admin/destination-rules, or PATCH /admin/destination-rules/{id} when `id` is given. */
export function saveDestinationRule(draft: DestinationRuleDraft, id?: number) {
  const json: CreateDestinationRule | UpdateDestinationRule = draft;
  return apiRequest<ApiSuccess<DestinationRule>>(
    id === undefined ? "/admin/destination-rules" : `/admin/destination-rules/${id}`,
    { method: id === undefined ? "POST" : "PATCH", json },
  );
}

/** DELETE /admin/destination-rules/{id}. */
export function deleteDestinationRule(id: number) {
  return apiRequest<MessageResponse>(`/admin/destination-rules/${id}`, { method: "DELETE" });
}

function useInvalidateRules() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminQueryKey("destination-rules") }),
      queryClient.invalidateQueries({ queryKey: adminQueryKey("audit") }),
    ]);
}

export function useSaveDestinationRule(id?: number) {
  const invalidate = useInvalidateRules();
  return useMutation({
    mutationFn: (draft: DestinationRuleDraft) => saveDestinationRule(draft, id),
    onSuccess: invalidate,
  });
}

export function useDeleteDestinationRule(id: number) {
  const invalidate = useInvalidateRules();
  return useMutation({ mutationFn: () => deleteDestinationRule(id), onSuccess: invalidate });
}
