import type { Deal } from "@bytetoll/contracts";
import { classNames } from "../../../lib/class-names.ts";
import { formatMoney } from "../../../lib/format.ts";
import { dealStatusText } from "../deal-status.ts";
import { DealProgress } from "./deal-progress.tsx";
import { FlashSalePurchase } from "./flash-sale-purchase.tsx";
import { GroupBuyDeposit } from "./group-buy-deposit.tsx";
import { ShareMenu } from "./share-menu.tsx";

const KIND_LABEL = { flash_sale: "Flash sale", group_buy: "Group buy" } as const;

const STATUS_TONE: Record<Deal["status"], string> = {
  pending: "bg-amber-50 text-amber-800",
  live: "bg-emerald-50 text-emerald-800",
  activated: "bg-indigo-50 text-indigo-800",
  expired: "bg-slate-100 text-slate-600",
  cancelled: "bg-slate-100 text-slate-600",
};

interface DealCardProps {
  deal: Deal;
  now: number;
  signedIn: boolean;
  refundAddress: string | null;
  marketingUrl: string;
  /** The deal a shared link (`?di=`) named: shown ringed, scrolled to and focused. */
  shared?: boolean;
}

/** One deal: what it is, its status (with a countdown), progress, how to take part, and sharing. */
export function DealCard({ deal, now, signedIn, refundAddress, marketingUrl, shared }: DealCardProps) {
  return (
    <article
      id={`deal-${deal.id}`}
      tabIndex={shared ? -1 : undefined}
      aria-labelledby={`deal-${deal.id}-title`}
      className={classNames(
        "flex h-full flex-col gap-4 rounded-xl border border-slate-200 p-4 focus:outline-none",
        shared && "ring-2 ring-indigo-500",
      )}
      data-testid="deal-card"
      data-shared={shared ? "true" : undefined}
    >
      <header className="flex items-start justify-between gap-3">
        <div className="space-y-1">
          <p className="text-xs font-medium tracking-wide text-indigo-600 uppercase">
            {KIND_LABEL[deal.deal_type]}
          </p>
          <h3 id={`deal-${deal.id}-title`} className="font-semibold text-slate-900">
            {deal.deal_title}
          </h3>
        </div>
        <ShareMenu dealId={deal.id} title={deal.deal_title} marketingUrl={marketingUrl} />
      </header>
      {deal.deal_description ? <p className="text-sm text-slate-600">{deal.deal_description}</p> : null}
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="font-semibold text-slate-900">{formatMoney(deal.deal_price)}/GB</span>
        <span
          className={classNames(
            "rounded-full px-2.5 py-0.5 text-xs font-medium tabular-nums",
            STATUS_TONE[deal.status],
          )}
          data-testid="deal-status"
        >
          {dealStatusText(deal, now)}
        </span>
      </div>
      <DealProgress reserved={deal.deal_reserved_gb} target={deal.deal_target_gb} />
      {deal.deal_type === "flash_sale" ? (
        deal.status === "live" ? (
          <FlashSalePurchase deal={deal} />
        ) : null
      ) : (
        <GroupBuyDeposit deal={deal} signedIn={signedIn} refundAddress={refundAddress} />
      )}
    </article>
  );
}
