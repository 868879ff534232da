import type { Payout } from "@bytetoll/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

/** POST /admin/payouts/{id}/sent with the transaction hash, or /failed (the money becomes
 * withdrawable by the customer again). */
export function settlePayout(id: string, outcome: { sent: string } | "failed") {
  const path = `/admin/payouts/${encodeURIComponent(id)}`;
  return outcome === "failed"
    ? apiRequest<ApiSuccess<Payout>>(`${path}/failed`, { method: "POST" })
    : apiRequest<ApiSuccess<Payout>>(`${path}/sent`, { method: "POST", json: { tx_hash: outcome.sent } });
}

export function useSettlePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; outcome: { sent: string } | "failed" }) =>
      settlePayout(input.id, input.outcome),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminQueryKey("payouts") }),
        queryClient.invalidateQueries({ queryKey: adminQueryKey("audit") }),
      ]);
    },
  });
}
