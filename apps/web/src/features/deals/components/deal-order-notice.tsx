import { DEAL_ORDER_UNAVAILABLE, type Deal } from "@bytetoll/contracts";
import { formatMoney } from "../../../lib/format.ts";
import { useDeal } from "../api/get-deal.ts";

const KIND_LABEL = { flash_sale: "Flash sale", group_buy: "Group buy deposit" } as const;

/** Names the deal a checkout buys (its kind, title and price per GB), so a customer who came from a
 * deal's Buy, possibly through a login link, sees what they are paying for. */
export function DealSummary({ deal }: { deal: Deal }) {
  return (
    <section
      aria-label="Deal"
      className="rounded-xl border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-900"
      data-testid="deal-summary"
    >
      <p className="text-xs font-medium tracking-wide text-indigo-700 uppercase">
        {KIND_LABEL[deal.deal_type]}
      </p>
      <p className="mt-0.5 flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="font-semibold">{deal.deal_title}</span>
        <span className="font-semibold tabular-nums">{formatMoney(deal.deal_price)}/GB</span>
      </p>
    </section>
  );
}

/** On an unpaid order made for a deal: names the deal while it is live, says so when it no longer is. */
export function DealOrderNotice({ dealId }: { dealId: string }) {
  const deal = useDeal(dealId);
  if (deal.isPending || deal.isError) return null;
  if (deal.data?.status === "live") return <DealSummary deal={deal.data} />;
  return (
    <p
      role="alert"
      className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-800"
    >
      {DEAL_ORDER_UNAVAILABLE}
    </p>
  );
}
