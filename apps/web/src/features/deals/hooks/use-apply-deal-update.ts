import { type Deal, dealUpdatedEvent } from "@bytetoll/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { dealQueryKey } from "../api/get-deal.ts";
import { DEALS_QUERY_KEY, LATEST_DEALS_QUERY_KEY } from "../api/get-latest-deals.ts";

/** The event's deal, when the payload is the contracts' shape (anything else is ignored). */
function dealOf(payload: unknown): Deal | null {
  const parsed = dealUpdatedEvent.safeParse(payload);
  return parsed.success ? parsed.data.deal : null;
}

/** Handles a `deal.updated` payload: the deal takes its new state in every cached view of it
 * (a new deal joins the top of the list). */
export function useApplyDealUpdate(): (payload: unknown) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (payload: unknown) => {
      const deal = dealOf(payload);
      if (!deal) return;
      // A read of the views written here, still in flight (the one after joining, say), started
      // before this change: its answer would be older, so it is dropped. Only those views: a
      // cancelled read goes back to its old data, and the caller's deposits (not in the event)
      // would then keep showing what a withdrawal just emptied.
      const written = [dealQueryKey(deal.id), LATEST_DEALS_QUERY_KEY];
      void Promise.all(written.map((queryKey) => queryClient.cancelQueries({ queryKey, exact: true }))).then(
        () => {
          queryClient.setQueryData(dealQueryKey(deal.id), deal);
          queryClient.setQueryData<Deal[]>(LATEST_DEALS_QUERY_KEY, (deals) => {
            if (!deals) return deals;
            return deals.some((d) => d.id === deal.id)
              ? deals.map((d) => (d.id === deal.id ? deal : d))
              : [deal, ...deals];
          });
        },
      );
    },
    [queryClient],
  );
}

/** On joining the deals room (first, and after a reconnect): every cached deal is read again, as
 * an update sent before the join never reached the page. */
export function useRereadDeals(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => void queryClient.invalidateQueries({ queryKey: DEALS_QUERY_KEY }), [queryClient]);
}
