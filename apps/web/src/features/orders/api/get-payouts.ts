import type { Payout, PayoutListResponse } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { PAYOUTS_QUERY_KEY } from "../../../lib/payouts-query-key.ts";

/** GET /payouts: the signed-in user's withdrawn and refunded deposits, newest first. */
export async function getPayouts(signal?: AbortSignal): Promise<Payout[]> {
  const body = await apiRequest<PayoutListResponse>("/payouts", { signal });
  return body.data;
}

export const payoutsQueryOptions = () =>
  queryOptions({
    queryKey: PAYOUTS_QUERY_KEY,
    queryFn: ({ signal }) => getPayouts(signal),
    staleTime: 30_000,
  });

export function usePayouts() {
  return useQuery(payoutsQueryOptions());
}
