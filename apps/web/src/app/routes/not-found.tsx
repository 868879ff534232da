import { Link } from "react-router";
import { CenteredPage } from "../../components/layout/centered-page.tsx";
import { LegalFooter } from "../../components/layout/legal-footer.tsx";
import { buttonClassName } from "../../components/ui/button.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { useSession } from "../../features/auth/hooks/use-session.ts";
import { useConfig } from "../../lib/config.ts";
import { usePageTitle } from "../../lib/page-title.ts";

/** Any unknown path (docs/product.md#not-found). */
export function Component() {
  usePageTitle("Page Not Found");
  const session = useSession();
  const { data: config } = useConfig();

  return (
    <CenteredPage footer={<LegalFooter termsUrl={config?.terms_url} privacyUrl={config?.privacy_url} />}>
      <div className="space-y-4 text-center">
        <p className="text-6xl font-bold tracking-tight text-indigo-600">404</p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Page Not Found</h1>
        <p className="text-sm text-slate-500">The page you're looking for doesn't exist.</p>
        <div className="pt-2">
          {session.status === "loading" ? (
            <Skeleton className="mx-auto h-10 w-48" />
          ) : session.status === "signed-in" ? (
            <Link to="/" className={buttonClassName("primary", "w-full")}>
              Go back to Dashboard
            </Link>
          ) : (
            <Link to="/login" className={buttonClassName("primary", "w-full")}>
              Go to Login
            </Link>
          )}
        </div>
      </div>
    </CenteredPage>
  );
}
