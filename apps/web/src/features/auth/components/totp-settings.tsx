import type { TotpSetupResponse } from "@bytetoll/contracts";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { disableTotp, enableTotp, setupTotp, useFactorChange } from "../api/change-factors.ts";
import { CodeField } from "./code-field.tsx";
import { RecoveryCodesNotice } from "./recovery-codes-notice.tsx";

type Setup = TotpSetupResponse["data"];

/** The authenticator app: set up (QR code and secret), turned on by a first code, off by a code. */
export function TotpSettings({ on }: { on: boolean }) {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState("");
  const [codes, setCodes] = useState<string[] | null>(null);
  const start = useFactorChange(setupTotp);
  const enable = useFactorChange(enableTotp);
  const disable = useFactorChange(disableTotp);
  const error = start.error ?? enable.error ?? disable.error;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (on) disable.mutate({ code }, { onSuccess: () => setCode("") });
    else
      enable.mutate(code, {
        onSuccess: (recovery) => {
          setCodes(recovery);
          setSetup(null);
          setCode("");
        },
      });
  }

  return (
    <section className="space-y-3" aria-labelledby="totp-heading" data-testid="totp-settings">
      <h3 id="totp-heading" className="text-sm font-medium text-slate-700">
        Authenticator app{" "}
        {on ? <span className="text-emerald-700">· On</span> : <span className="text-slate-500">· Off</span>}
      </h3>
      {codes && <RecoveryCodesNotice codes={codes} />}
      {!on && !setup && (
        <Button
          variant="secondary"
          onClick={() => start.mutate(undefined, { onSuccess: setSetup })}
          disabled={start.isPending}
        >
          Set up an authenticator app
        </Button>
      )}
      {setup && (
        <div className="space-y-2 text-sm text-slate-600">
          <p>
            Scan this code with your authenticator app, or type the secret in, then enter the code it shows.
          </p>
          <img
            src={setup.qr_code}
            alt="QR code of the authenticator secret"
            className="size-40 rounded border border-slate-200 bg-white [image-rendering:pixelated]"
          />
          <p className="break-all font-mono text-slate-900" data-testid="totp-secret">
            {setup.secret}
          </p>
        </div>
      )}
      {(setup || on) && (
        <form onSubmit={submit} className="space-y-2">
          <CodeField
            label={on ? "A current code, to turn the app off" : "Code from the app"}
            value={code}
            onChange={setCode}
            testId="totp-code"
          />
          <Button
            type="submit"
            variant={on ? "secondary" : "primary"}
            disabled={!code.trim() || enable.isPending || disable.isPending}
          >
            {on ? "Turn off" : "Turn on"}
          </Button>
        </form>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error.message}
        </p>
      )}
    </section>
  );
}
