import { DEAL_ORDER_UNAVAILABLE } from "@bytetoll/contracts";
import { useDeal } from "../api/get-deal.ts";

/** On an unpaid order made for a deal: says so when the deal is no longer live. */
export function DealOrderNotice({ dealId }: { dealId: string }) {
  const deal = useDeal(dealId);
  if (deal.isPending || deal.isError || deal.data?.status === "live") return null;
  return (
    <p
      role="alert"
      className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-800"
    >
      {DEAL_ORDER_UNAVAILABLE}
    </p>
  );
}
