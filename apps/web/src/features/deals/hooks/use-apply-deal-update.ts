import type { Deal } from "@bytetoll/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { dealQueryKey } from "../api/get-deal.ts";
import { LATEST_DEALS_QUERY_KEY } from "../api/get-latest-deals.ts";

function dealOf(payload: unknown): Deal | null {
  if (typeof payload !== "object" || payload === null) return null;
  const deal = (payload as { deal?: unknown }).deal;
  if (typeof deal !== "object" || deal === null) return null;
  return typeof (deal as { id?: unknown }).id === "string" ? (deal as Deal) : null;
}

/** Handles a `deal.updated` payload: the deal takes its new state in every cached view of it
 * (a new deal joins the top of the list). */
export function useApplyDealUpdate(): (payload: unknown) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (payload: unknown) => {
      const deal = dealOf(payload);
      if (!deal) return;
      queryClient.setQueryData(dealQueryKey(deal.id), deal);
      queryClient.setQueryData<Deal[]>(LATEST_DEALS_QUERY_KEY, (deals) => {
        if (!deals) return deals;
        return deals.some((d) => d.id === deal.id)
          ? deals.map((d) => (d.id === deal.id ? deal : d))
          : [deal, ...deals];
      });
    },
    [queryClient],
  );
}
