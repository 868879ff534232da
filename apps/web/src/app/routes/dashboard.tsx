import { DEAL_UPDATED_EVENT, DEALS_CHANNEL } from "@bytetoll/contracts";
import { useSession } from "../../features/auth/hooks/use-session.ts";
import { DataBalanceCard } from "../../features/balance/components/data-balance-card.tsx";
import { ZeroBalanceWarning } from "../../features/balance/components/zero-balance-warning.tsx";
import { PromotionsSection } from "../../features/deals/components/promotions-section.tsx";
import { useApplyDealUpdate } from "../../features/deals/hooks/use-apply-deal-update.ts";
import { BuyMoreDialog } from "../../features/orders/components/buy-more-dialog.tsx";
import { PayoutHistory } from "../../features/orders/components/payout-history.tsx";
import { TransactionHistory } from "../../features/orders/components/transaction-history.tsx";
import { useConfig } from "../../lib/config.ts";
import { usePageTitle } from "../../lib/page-title.ts";
import { useRealtimeConnection, useRealtimeEvent } from "../../lib/realtime/use-realtime-connection.ts";

/** / (docs/product.md#dashboard): balance with Buy More, promotions, purchase history. */
export function Component() {
  usePageTitle("Buy Data");
  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-5xl space-y-6">
      <h1 id="screen-title" className="text-2xl font-semibold tracking-tight text-slate-900">
        Buy Data
      </h1>
      <ZeroBalanceWarning />
      <DataBalanceCard action={<BuyMoreDialog />} />
      <LivePromotions />
      <TransactionHistory />
      <PayoutHistory />
    </section>
  );
}

/** Promotions kept live by `deal.updated` on the public deals room, polled while that is down. */
function LivePromotions() {
  const session = useSession();
  const config = useConfig();
  const realtime = useRealtimeConnection();
  useRealtimeEvent(DEALS_CHANNEL, DEAL_UPDATED_EVENT, useApplyDealUpdate());
  return (
    <PromotionsSection
      poll={realtime !== "connected"}
      signedIn={session.status === "signed-in"}
      refundAddress={session.user?.refund_address ?? null}
      marketingUrl={config.data?.marketing_url ?? window.location.origin}
    />
  );
}
