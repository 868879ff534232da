import type { DepositsResponse } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { DEALS_QUERY_KEY } from "./get-latest-deals.ts";

export const dealDepositsQueryKey = (id: string) => [...DEALS_QUERY_KEY, "deposits", id] as const;

export type DealDeposits = DepositsResponse["data"];

/** GET /deals/{id}/deposits: the signed-in user's deposit in a group buy, in USD: held or owed
 * back (`total_deposit`), and what bought data when it activated (`credited_deposit`). */
export async function getDealDeposits(id: string, signal?: AbortSignal): Promise<DealDeposits> {
  const body = await apiRequest<DepositsResponse>(`/deals/${encodeURIComponent(id)}/deposits`, { signal });
  // An older server answers only total_deposit.
  return { total_deposit: body.data.total_deposit, credited_deposit: body.data.credited_deposit ?? 0 };
}

export const dealDepositsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: dealDepositsQueryKey(id),
    queryFn: ({ signal }) => getDealDeposits(id, signal),
    staleTime: 30_000,
    // A deposit is paid on the checkout page: coming back to the list shows it.
    refetchOnMount: "always",
  });

/** Read only while someone is signed in. */
export function useDealDeposits(id: string, signedIn: boolean) {
  return useQuery({ ...dealDepositsQueryOptions(id), enabled: signedIn });
}
