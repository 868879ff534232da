import type { SignedIn, TwoFactorChallenge } from "@bytetoll/contracts";
import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from "@simplewebauthn/browser";
import { KeyRound } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { CenteredPage } from "../../../components/layout/centered-page.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { verifySecondFactor } from "../api/verify-second-factor.ts";
import { CodeField } from "./code-field.tsx";

/** The second step of signing in: a code from the authenticator app, a passkey, or a recovery
 * code. A wrong code says so and may be tried again (five wrong ones wait 15 minutes). */
export function SecondFactorChallenge({
  challenge,
  onSignedIn,
}: {
  challenge: TwoFactorChallenge;
  onSignedIn: (signedIn: SignedIn) => Promise<void>;
}) {
  const hasTotp = challenge.methods.includes("totp");
  const [useRecovery, setUseRecovery] = useState(!hasTotp && !challenge.passkey_options);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function attempt(factor: () => Promise<Omit<Parameters<typeof verifySecondFactor>[0], "challenge">>) {
    setBusy(true);
    setError(null);
    try {
      await onSignedIn(await verifySecondFactor({ challenge: challenge.challenge, ...(await factor()) }));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "That did not work. Please try again.");
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void attempt(async () => (useRecovery ? { recovery_code: code } : { code }));
  }

  const passkeyOptions = challenge.passkey_options as PublicKeyCredentialRequestOptionsJSON | null;
  return (
    <CenteredPage>
      <div className="space-y-5" data-testid="second-factor-challenge">
        <div>
          <h1 className="text-xl font-semibold tracking-tight text-slate-900">Confirm it's you</h1>
          <p className="mt-1 text-sm text-slate-600">Your account asks for a second factor to sign in.</p>
        </div>
        {passkeyOptions && (
          <Button
            className="w-full"
            disabled={busy}
            onClick={() =>
              void attempt(async () => ({
                // The server checks the whole assertion; its schema reads it as an open object.
                passkey: { ...(await startAuthentication({ optionsJSON: passkeyOptions })) },
              }))
            }
            data-testid="use-passkey"
          >
            <KeyRound aria-hidden="true" className="size-4" />
            Use a passkey
          </Button>
        )}
        {(hasTotp || useRecovery) && (
          <form onSubmit={submit} className="space-y-3" aria-busy={busy}>
            <CodeField
              label={useRecovery ? "Recovery code" : "Code from your authenticator app"}
              value={code}
              onChange={setCode}
              recovery={useRecovery}
              testId="second-factor-code"
            />
            <Button
              type="submit"
              variant={passkeyOptions ? "secondary" : "primary"}
              className="w-full"
              disabled={busy || !code.trim()}
            >
              {busy ? "Checking…" : "Sign in"}
            </Button>
          </form>
        )}
        {error && (
          <p role="alert" className="text-sm text-red-700" data-testid="second-factor-error">
            {error}
          </p>
        )}
        <div className="flex flex-wrap justify-between gap-2 text-sm">
          <button
            type="button"
            className="font-medium text-indigo-700 underline-offset-2 hover:underline"
            onClick={() => {
              setUseRecovery(!useRecovery);
              setCode("");
            }}
          >
            {useRecovery
              ? hasTotp
                ? "Use the authenticator app"
                : "Hide the recovery code"
              : "Use a recovery code"}
          </button>
          <Link to="/login" className="font-medium text-slate-600 underline-offset-2 hover:underline">
            Start over
          </Link>
        </div>
      </div>
    </CenteredPage>
  );
}
