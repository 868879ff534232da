import { WITHDRAW_FAILED } from "@bytetoll/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, apiRequest } from "../../../lib/api-client.ts";
import { PAYOUTS_QUERY_KEY } from "../../../lib/payouts-query-key.ts";
import { dealDepositsQueryKey } from "./get-deal-deposits.ts";
import { LATEST_DEALS_QUERY_KEY } from "./get-latest-deals.ts";

/** POST /deals/{id}/withdraw: the deposit becomes a payout to the wallet. Errors read as the
 * server's own message (a 422 names the wallet address problem), else a general one. */
export async function withdrawDeposit(id: string, walletAddress: string): Promise<string> {
  try {
    const body = await apiRequest<{ success: true; message: string }>(
      `/deals/${encodeURIComponent(id)}/withdraw`,
      { method: "POST", json: { wallet_address: walletAddress } },
    );
    return body.message;
  } catch (error) {
    if (error instanceof ApiError && error.fromServer) throw error;
    throw new Error(WITHDRAW_FAILED);
  }
}

export function useWithdrawDeposit(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (walletAddress: string) => withdrawDeposit(id, walletAddress),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: dealDepositsQueryKey(id) }),
        queryClient.invalidateQueries({ queryKey: LATEST_DEALS_QUERY_KEY }),
        // The withdrawal is a payout now: the history lists it.
        queryClient.invalidateQueries({ queryKey: PAYOUTS_QUERY_KEY }),
      ]);
    },
  });
}
