import { Link, useParams } from "react-router";
import { LayoutSkeleton } from "../../components/layout/layout-skeleton.tsx";
import { BrandLogo } from "../../components/ui/brand-logo.tsx";
import { RequireSignedIn } from "../../features/auth/components/require-signed-in.tsx";
import { useSession } from "../../features/auth/hooks/use-session.ts";
import { ReceiptView } from "../../features/orders/components/receipt-view.tsx";
import { usePageTitle } from "../../lib/page-title.ts";

/** /orders/{orderId}/receipt: signed in, outside the dashboard layout so it prints as a page of
 * its own (docs/product.md#order-page). */
export function Component() {
  usePageTitle("Receipt");
  const { orderId = "" } = useParams();
  const session = useSession();
  return (
    <RequireSignedIn fallback={<LayoutSkeleton />}>
      <div className="min-h-dvh bg-slate-50 print:bg-white">
        <header className="flex h-16 items-center border-b border-slate-200 bg-white px-4 lg:px-8 print:hidden">
          <Link
            to="/"
            className="rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            <BrandLogo />
          </Link>
        </header>
        <main className="mx-auto max-w-2xl px-4 py-8 sm:px-6 lg:px-8 print:max-w-none print:p-0">
          {session.status === "signed-in" ? (
            <ReceiptView key={orderId} orderId={orderId} billedTo={session.user.email} />
          ) : null}
        </main>
      </div>
    </RequireSignedIn>
  );
}
