import { useFactorStatus } from "../api/get-factor-status.ts";
import { PasskeySettings } from "./passkey-settings.tsx";
import { TotpSettings } from "./totp-settings.tsx";

/** Second factors for signing in (docs/product.md#second-factor): the authenticator app, the
 * passkeys, and how many recovery codes are left. */
export function SecondFactorSettings() {
  const status = useFactorStatus();
  return (
    <div className="space-y-4 border-t border-slate-100 pt-4" data-testid="second-factor-settings">
      <div>
        <h2 className="text-sm font-semibold text-slate-900">Second factor</h2>
        <p className="text-xs text-slate-500">
          With one on, a login link also asks for a code or a passkey.
          {status.data &&
            status.data.recovery_codes_left > 0 &&
            ` ${status.data.recovery_codes_left} recovery codes left.`}
        </p>
      </div>
      {status.isPending && <p className="text-sm text-slate-500">Loading…</p>}
      {status.isError && (
        <p role="alert" className="text-sm text-red-700">
          {status.error.message}
        </p>
      )}
      {status.data && (
        <>
          <TotpSettings on={status.data.totp} />
          <PasskeySettings passkeys={status.data.passkeys} />
        </>
      )}
    </div>
  );
}
