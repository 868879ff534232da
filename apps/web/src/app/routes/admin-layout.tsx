import { lazy, Suspense, useState } from "react";
import { Navigate } from "react-router";
import { LayoutSkeleton } from "../../components/layout/layout-skeleton.tsx";
import { AdminGate } from "../../features/admin/components/admin-gate.tsx";
import { OperatorFactorRequired } from "../../features/auth/components/operator-factor-required.tsx";
import { ProfileMenu } from "../../features/auth/components/profile-menu.tsx";
import { useSession } from "../../features/auth/hooks/use-session.ts";
import { LowBalanceAlertForm } from "../../features/balance/components/low-balance-alert-form.tsx";
import { ProfileApiToken } from "../../features/connect/components/profile-api-token.tsx";

// The console's code (its frame and every page) loads only behind the gate: a customer who opens
// /admin downloads this module and the "Not an operator" page, nothing of the console.
const AdminShell = lazy(() => import("../../features/admin/components/admin-shell.tsx"));
const AdminPages = lazy(() => import("./admin-pages.tsx"));

/** /admin/*: the operator's console, its pages routed by AdminPages. Signed-out visitors sign in
 * first; the API says who may enter. */
export function Component() {
  const session = useSession();
  // An operator without a factor sets one up in place; the page stays (with its recovery codes)
  // until they choose to open the console.
  const [settingUp, setSettingUp] = useState(false);
  const factorMissing = session.user?.operator_factor_missing === true;
  if (factorMissing && !settingUp) setSettingUp(true);
  if (session.status === "loading") return <LayoutSkeleton />;
  if (session.status === "anonymous") return <Navigate to="/login" replace />;
  if (settingUp)
    return <OperatorFactorRequired ready={!factorMissing} onContinue={() => setSettingUp(false)} />;
  return (
    <AdminGate>
      <Suspense fallback={<LayoutSkeleton />}>
        <AdminShell
          actions={
            <>
              <span className="hidden text-sm font-medium text-slate-500 sm:inline">Operator console</span>
              <ProfileMenu apiToken={<ProfileApiToken />} balanceAlert={<LowBalanceAlertForm />} billing />
            </>
          }
        >
          <AdminPages />
        </AdminShell>
      </Suspense>
    </AdminGate>
  );
}
