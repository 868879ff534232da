import type { CreateDealRequest, Deal, UpdateDealRequest } from "@bytetoll/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";
import { DEALS_QUERY_KEY } from "./get-deals.ts";

/** POST /admin/deals. */
export function createDeal(body: CreateDealRequest) {
  return apiRequest<ApiSuccess<Deal>>("/admin/deals", { method: "POST", json: body });
}

/** PATCH /admin/deals/{id}: only before the deal starts. */
export function updateDeal(id: string, body: UpdateDealRequest) {
  return apiRequest<ApiSuccess<Deal>>(`/admin/deals/${encodeURIComponent(id)}`, {
    method: "PATCH",
    json: body,
  });
}

/** POST /admin/deals/{id}/cancel: a group buy's deposits become refunds. */
export function cancelDeal(id: string) {
  return apiRequest<ApiSuccess<Deal>>(`/admin/deals/${encodeURIComponent(id)}/cancel`, { method: "POST" });
}

function useDealMutation<I>(mutationFn: (input: I) => Promise<ApiSuccess<Deal>>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: DEALS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: adminQueryKey("payouts") }),
        queryClient.invalidateQueries({ queryKey: adminQueryKey("audit") }),
      ]);
    },
  });
}

export const useCreateDeal = () => useDealMutation(createDeal);
export const useUpdateDeal = () =>
  useDealMutation((input: { id: string; body: UpdateDealRequest }) => updateDeal(input.id, input.body));
export const useCancelDeal = () => useDealMutation(cancelDeal);
