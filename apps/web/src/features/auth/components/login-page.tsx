import { useEffect, useState } from "react";
import { Navigate, useLocation, useNavigate, useSearchParams } from "react-router";
import { CenteredPage } from "../../../components/layout/centered-page.tsx";
import { LegalFooter } from "../../../components/layout/legal-footer.tsx";
import { FALLBACK_PRICE_PER_GB_USD, useConfig } from "../../../lib/config.ts";
import { formatMoney } from "../../../lib/format.ts";
import { useLoginForm } from "../hooks/use-login-form.ts";
import { useSession } from "../hooks/use-session.ts";
import { readLoginPrefill, signedInDestination } from "../login-request.ts";
import { LoginForm } from "./login-form.tsx";
import { LoginSentNotice } from "./login-sent-notice.tsx";
import { LoginSkeleton } from "./login-skeleton.tsx";

/** /login (docs/product.md#login). */
export function LoginPage() {
  const session = useSession();
  const config = useConfig();
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  // Read once: the history entry is rewritten without them right below.
  const [prefill] = useState(() => readLoginPrefill(location.state));
  const form = useLoginForm({ search, prefill, initialising: session.status === "loading" });

  const hasPrefillInHistory = readLoginPrefill(location.state) !== null;
  useEffect(() => {
    // docs/product.md#routes-and-layout: prefilled credentials must not stay in the browser history entry.
    if (hasPrefillInHistory) {
      void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null });
    }
  }, [hasPrefillInHistory, navigate, location.pathname, location.search]);

  if (session.status === "signed-in") return <Navigate to={signedInDestination(search)} replace />;

  const claimingCredit = search.get("s") === "cc";
  const pricePerGb = config.data?.price_per_gb_usd ?? FALLBACK_PRICE_PER_GB_USD;
  const heading = claimingCredit ? `Claim Your Free ${formatMoney(pricePerGb)} Credit` : "Login / Sign Up";

  return (
    <CenteredPage
      footer={<LegalFooter termsUrl={config.data?.terms_url} privacyUrl={config.data?.privacy_url} />}
    >
      {session.status === "loading" ? (
        <LoginSkeleton />
      ) : (
        <div className="space-y-6">
          <div className="space-y-1.5 text-center">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{heading}</h1>
            <p className="text-sm text-slate-500">We e-mail you a one-time link. No password needed.</p>
          </div>
          {form.status === "submitted" ? (
            <LoginSentNotice email={form.sentTo} onRestart={form.restart} />
          ) : (
            <LoginForm form={form} />
          )}
        </div>
      )}
    </CenteredPage>
  );
}
