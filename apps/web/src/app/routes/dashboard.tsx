import { DEAL_UPDATED_EVENT, DEALS_CHANNEL } from "@bytetoll/contracts";
import { GetStartedChecklist } from "../../components/onboarding/get-started-checklist.tsx";
import { useSession } from "../../features/auth/hooks/use-session.ts";
import { AutoTopupLine } from "../../features/auto-topup/components/auto-topup-line.tsx";
import { useAccountStatus } from "../../features/balance/api/get-account-status.ts";
import { DataBalanceCard } from "../../features/balance/components/data-balance-card.tsx";
import { ZeroBalanceWarning } from "../../features/balance/components/zero-balance-warning.tsx";
import { PromotionsSection } from "../../features/deals/components/promotions-section.tsx";
import { useApplyDealUpdate, useRereadDeals } from "../../features/deals/hooks/use-apply-deal-update.ts";
import { useTransactions } from "../../features/orders/api/get-transactions.ts";
import { BuyMoreDialog } from "../../features/orders/components/buy-more-dialog.tsx";
import { InvoiceHistory } from "../../features/orders/components/invoice-history.tsx";
import { PayoutHistory } from "../../features/orders/components/payout-history.tsx";
import { TransactionHistory } from "../../features/orders/components/transaction-history.tsx";
import { useConfig } from "../../lib/config.ts";
import { isStepRecorded } from "../../lib/get-started.ts";
import { usePageTitle } from "../../lib/page-title.ts";
import { useRealtimeConnection, useRealtimeEvent } from "../../lib/realtime/use-realtime-connection.ts";

/** / (docs/product.md#dashboard): balance with Buy More, promotions, purchase history, invoices. */
export function Component() {
  usePageTitle("Buy Data");
  const session = useSession();
  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-5xl space-y-6">
      <h1 id="screen-title" className="text-2xl font-semibold tracking-tight text-slate-900">
        Buy Data
      </h1>
      <ZeroBalanceWarning />
      <GetStarted />
      <DataBalanceCard action={<BuyMoreDialog />} footer={<AutoTopup />} />
      <LivePromotions />
      <TransactionHistory userId={session.user?.id ?? null} />
      <InvoiceHistory />
      <PayoutHistory />
    </section>
  );
}

/** The auto top-up line, told the balance so its dialog can say when a top-up is due at once. */
function AutoTopup() {
  const balance = useAccountStatus();
  return <AutoTopupLine balanceGb={balance.data?.balance_gb ?? null} />;
}

/** A new account's checklist. The free GB counts as used once the balance is below it; copying the
 * credentials and a successful Test Connection are recorded by the Connect page in this browser. */
function GetStarted() {
  const balance = useAccountStatus();
  const config = useConfig();
  const history = useTransactions({ page: 1 });
  if (!balance.data || !config.data || !history.data) return null;
  const freeGbUsed = config.data.free_gb > 0 && balance.data.balance_gb < config.data.free_gb;
  const orderPaid = history.data.data.some((order) => order.payment_status === "paid");
  return (
    <GetStartedChecklist
      steps={[
        { label: "Buy data or use your free GB", done: orderPaid || freeGbUsed },
        { label: "Copy your proxy credentials", done: isStepRecorded("credentialsCopied"), to: "/connect" },
        { label: "Test the connection", done: isStepRecorded("connectionTested"), to: "/connect" },
      ]}
    />
  );
}

/** Promotions kept live by `deal.updated` on the public deals room, polled while that is down. */
function LivePromotions() {
  const session = useSession();
  const config = useConfig();
  const realtime = useRealtimeConnection();
  useRealtimeEvent(DEALS_CHANNEL, DEAL_UPDATED_EVENT, useApplyDealUpdate(), useRereadDeals());
  return (
    <PromotionsSection
      poll={realtime !== "connected"}
      signedIn={session.status === "signed-in"}
      refundAddress={session.user?.refund_address ?? null}
      marketingUrl={config.data?.marketing_url ?? window.location.origin}
    />
  );
}
