import type { AdminPayoutsPage } from "@bytetoll/contracts";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

export interface PayoutsParams {
  /** pending, sent or failed; "" for every status. */
  status: string;
  page: number;
  perPage: number;
}

/** GET /admin/payouts?status=&page=&per_page=: one page of withdrawn and refunded deposits, newest first. */
export function getPayouts(params: PayoutsParams, signal?: AbortSignal): Promise<AdminPayoutsPage> {
  return apiRequest<AdminPayoutsPage>("/admin/payouts", {
    query: { status: params.status || undefined, page: params.page, per_page: params.perPage },
    signal,
  });
}

export const payoutsQueryOptions = (params: PayoutsParams) =>
  queryOptions({
    queryKey: adminQueryKey("payouts", params),
    queryFn: ({ signal }) => getPayouts(params, signal),
    placeholderData: keepPreviousData,
  });

export function usePayouts(params: PayoutsParams) {
  return useQuery(payoutsQueryOptions(params));
}
