import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { LayoutSkeleton } from "../../components/layout/layout-skeleton.tsx";
import { ScreenPlaceholder } from "../../components/layout/screen-placeholder.tsx";
import { BrandLogo } from "../../components/ui/brand-logo.tsx";
import { buttonClassName } from "../../components/ui/button.tsx";
import { RequireSignedIn } from "../../features/auth/components/require-signed-in.tsx";

/** /checkout: signed in, outside the dashboard layout (SPEC §2 route table). */
export function Component() {
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
        <main className="px-4 py-8 sm:px-6 lg:px-8">
          <ScreenPlaceholder title="Checkout" arrivesWith="issue 3 (buying data)" />
        </main>
      </div>
    </RequireSignedIn>
  );
}
