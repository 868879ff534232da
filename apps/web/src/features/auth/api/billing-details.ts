import type { BillingDetails, BillingDetailsUpdate } from "@bytetoll/contracts";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";

/** Under ["account"], which logout's cleanup removes. */
export const BILLING_DETAILS_QUERY_KEY = ["account", "billing"] as const;

export const billingDetailsQueryOptions = () =>
  queryOptions({
    queryKey: BILLING_DETAILS_QUERY_KEY,
    queryFn: async ({ signal }) =>
      (await apiRequest<ApiSuccess<BillingDetails>>("/account/billing", { signal })).data,
  });

/** PUT /account/billing: the server trims and turns "" into null. */
export function useSaveBillingDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (details: BillingDetailsUpdate) =>
      (await apiRequest<ApiSuccess<BillingDetails>>("/account/billing", { method: "PUT", json: details }))
        .data,
    onSuccess: (saved) => queryClient.setQueryData(BILLING_DETAILS_QUERY_KEY, saved),
  });
}
