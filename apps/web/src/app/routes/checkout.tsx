import { decodeDealId } from "@bytetoll/contracts";
import { ArrowLeft } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { LayoutSkeleton } from "../../components/layout/layout-skeleton.tsx";
import { BrandLogo } from "../../components/ui/brand-logo.tsx";
import { buttonClassName } from "../../components/ui/button.tsx";
import { RequireSignedIn } from "../../features/auth/components/require-signed-in.tsx";
import { useSession } from "../../features/auth/hooks/use-session.ts";
import { useDeal } from "../../features/deals/api/get-deal.ts";
import { DealOrderNotice, DealSummary } from "../../features/deals/components/deal-order-notice.tsx";
import { CryptoCheckoutForm } from "../../features/orders/components/crypto-checkout-form.tsx";
import { DealUnavailable } from "../../features/orders/components/deal-unavailable.tsx";
import { OrderStatusView } from "../../features/orders/components/order-status-view.tsx";
import { parseUsdParam } from "../../features/orders/purchase-amount.ts";
import { usePageTitle } from "../../lib/page-title.ts";

/** /checkout: signed in, outside the dashboard layout (docs/product.md#routes-and-layout). */
export function Component() {
  const [search] = useSearchParams();
  usePageTitle(search.get("order_id") ? "Order" : "Checkout");
  return (
    <RequireSignedIn fallback={<LayoutSkeleton />}>
      <div className="min-h-dvh bg-slate-50">
        <header className="flex h-16 items-center justify-between border-b border-slate-200 bg-white px-4 lg:px-8">
          <Link
            to="/"
            className="rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            <BrandLogo />
          </Link>
          <Link to="/" className={buttonClassName("secondary", "py-2")}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            Dashboard
          </Link>
        </header>
        <main className="mx-auto max-w-2xl px-4 py-8 sm:px-6 lg:px-8">
          <CheckoutContent />
        </main>
      </div>
    </RequireSignedIn>
  );
}

/** docs/product.md#checkout: order_id shows that order; otherwise the payment form for usd/di. */
function CheckoutContent() {
  const session = useSession();
  const [search] = useSearchParams();
  const orderId = search.get("order_id");
  if (session.status !== "signed-in") return null;
  if (orderId) {
    return (
      <OrderStatusView
        key={orderId}
        orderId={orderId}
        userId={session.user.id}
        dealNotice={(dealId) => <DealOrderNotice dealId={dealId} />}
      />
    );
  }
  const usd = parseUsdParam(search.get("usd"));
  const di = search.get("di");
  if (di === null) return <CryptoCheckoutForm fixedUsd={usd > 0 ? usd : null} dealId={null} />;
  return <DealCheckout di={di} usd={usd} />;
}

/** Checkout for a deal (di): only while the deal is live. */
function DealCheckout({ di, usd }: { di: string; usd: number }) {
  // A di that is not one of our encodings cannot name a live deal.
  const decodable = decodeDealId(di) !== null;
  const deal = useDeal(decodable ? di : null);
  if (!decodable) return <DealUnavailable />;
  if (deal.isPending) return null;
  if (deal.data?.status !== "live") return <DealUnavailable />;
  return (
    <div className="space-y-4">
      <DealSummary deal={deal.data} />
      <CryptoCheckoutForm fixedUsd={usd > 0 ? usd : null} dealId={deal.data.id} />
    </div>
  );
}
