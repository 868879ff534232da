import { ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { CenteredPage } from "../../../components/layout/centered-page.tsx";
import { Button, buttonClassName } from "../../../components/ui/button.tsx";
import { SecondFactorSettings } from "./second-factor-settings.tsx";

/** In place of the operator's console while ADMIN_2FA=required and the operator has no second
 * factor: how to add one, right here. Once one is on (`ready`), the operator opens the console
 * when they have saved their recovery codes. */
export function OperatorFactorRequired({ ready, onContinue }: { ready: boolean; onContinue: () => void }) {
  return (
    <CenteredPage>
      <div className="space-y-4" data-testid="operator-factor-required">
        <ShieldCheck aria-hidden="true" className="mx-auto size-10 text-indigo-600" />
        <h1 className="text-center text-2xl font-semibold tracking-tight text-slate-900">
          Add a second factor first
        </h1>
        <p className="text-sm text-slate-600">
          Operators can credit any account, so this console asks for a second factor at sign-in. Set up an
          authenticator app or add a passkey below; the console opens once one is on.
        </p>
        <SecondFactorSettings />
        {ready && (
          <Button className="w-full" onClick={onContinue}>
            Open the console
          </Button>
        )}
        <Link to="/" className={buttonClassName("secondary", "w-full")}>
          Go back to Dashboard
        </Link>
      </div>
    </CenteredPage>
  );
}
