import { DataBalanceCard } from "../../features/balance/components/data-balance-card.tsx";
import { ZeroBalanceWarning } from "../../features/balance/components/zero-balance-warning.tsx";
import { BuyMoreDialog } from "../../features/checkout/components/buy-more-dialog.tsx";
import { PromotionsSection } from "../../features/checkout/components/promotions-section.tsx";
import { TransactionHistory } from "../../features/transactions/components/transaction-history.tsx";

/** / (SPEC §2 Dashboard): balance with Buy More, promotions, purchase history. */
export function Component() {
  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-5xl space-y-6">
      <h1 id="screen-title" className="text-2xl font-semibold tracking-tight text-slate-900">
        Buy Data
      </h1>
      <ZeroBalanceWarning />
      <DataBalanceCard action={<BuyMoreDialog />} />
      <PromotionsSection />
      <TransactionHistory />
    </section>
  );
}
