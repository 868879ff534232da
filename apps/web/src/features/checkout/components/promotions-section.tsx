import { formatMoney } from "../../../lib/format.ts";
import { useLatestDeals } from "../api/get-latest-deals.ts";

export const NO_DEALS_MESSAGE = "Check back soon for exclusive deals and discounts!";
export const DEALS_ERROR_MESSAGE = "Unable to load deals. Please try again later.";

/**
 * Dashboard Promotions (SPEC §2). Deals themselves arrive with their own issue; until the server
 * has the endpoint this section stays hidden rather than showing invented offers.
 */
export function PromotionsSection() {
  const deals = useLatestDeals();
  if (deals.isPending || deals.data === null) return null;
  return (
    <section
      aria-labelledby="promotions-title"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="promotions-title" className="text-base font-semibold text-slate-900">
        Promotions
      </h2>
      {deals.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-600">
          {DEALS_ERROR_MESSAGE}
        </p>
      ) : deals.data.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">{NO_DEALS_MESSAGE}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100 text-sm">
          {deals.data.map((deal) => (
            <li key={deal.id} className="flex items-center justify-between gap-3 py-2">
              <span className="font-medium text-slate-900">{deal.deal_title}</span>
              <span className="text-slate-500">{formatMoney(deal.deal_price)}/GB</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
