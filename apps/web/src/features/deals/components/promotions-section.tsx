import { DEALS_EMPTY, DEALS_LOAD_FAILED } from "@bytetoll/contracts";
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { useLatestDeals } from "../api/get-latest-deals.ts";
import { useNow } from "../hooks/use-now.ts";
import { DealCard } from "./deal-card.tsx";

export interface PromotionsSectionProps {
  /** Read the list every 30 s: realtime updates are not arriving. */
  poll: boolean;
  signedIn: boolean;
  /** Prefills the withdrawal's wallet address. */
  refundAddress: string | null;
  /** Where share links point. */
  marketingUrl: string;
}

/** The dashboard's Promotions: every current deal (and those ended in the last week). */
export function PromotionsSection({ poll, signedIn, refundAddress, marketingUrl }: PromotionsSectionProps) {
  const deals = useLatestDeals(poll);
  const now = useNow();
  const [search] = useSearchParams();
  const shared = search.get("di");
  const sharedShown = deals.data?.some((deal) => deal.id === shared) ?? false;
  // A shared deal link lands on its card: scrolled to and focused once the list is in.
  useEffect(() => {
    if (!sharedShown || !shared) return;
    const card = document.getElementById(`deal-${shared}`);
    card?.scrollIntoView({ block: "center" });
    card?.focus({ preventScroll: true });
  }, [shared, sharedShown]);
  return (
    <section
      aria-labelledby="promotions-title"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="promotions-title" className="text-base font-semibold text-slate-900">
        Promotions
      </h2>
      {deals.isPending ? (
        <Skeleton className="mt-3 h-24 w-full" />
      ) : deals.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-600">
          {DEALS_LOAD_FAILED}
        </p>
      ) : deals.data.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">{DEALS_EMPTY}</p>
      ) : (
        <ul className="mt-4 grid gap-4 md:grid-cols-2">
          {deals.data.map((deal) => (
            <li key={deal.id}>
              <DealCard
                deal={deal}
                now={now}
                signedIn={signedIn}
                refundAddress={refundAddress}
                marketingUrl={marketingUrl}
                shared={deal.id === shared}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
