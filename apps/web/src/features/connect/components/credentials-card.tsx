import { PROXY_TEST_SUCCEEDED } from "@bytetoll/contracts";
import { RefreshCw } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { CopyButton } from "../../../components/ui/copy-button.tsx";
import { ToggleSwitch } from "../../../components/ui/toggle-switch.tsx";
import { useConfig } from "../../../lib/config.ts";
import { formatMoney } from "../../../lib/format.ts";
import { recordStepDone } from "../../../lib/get-started.ts";
import { useTestConnection } from "../api/test-connection.ts";
import type { ConnectCredentials } from "../hooks/use-connect-credentials.ts";
import type { UsernameOptionsState } from "../hooks/use-username-options.ts";
import { CollapsibleCard } from "./collapsible-card.tsx";
import { ConnectionTestError, ConnectionTestSuccess } from "./connection-test-result.tsx";

export const STICKY_HINT =
  "Sticky: every request keeps the same exit IP until you start a new session. Off (rotating): each request may use a different one.";

export interface CredentialsCardProps {
  credentials: ConnectCredentials;
  /** The username with the session/routing suffixes the toggles add. */
  username: string;
  options: UsernameOptionsState;
  /** The gateway to test through; null until known. */
  proxy: { host: string; port: number } | null;
}

function Field({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <div>
      <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</p>
      <div className="mt-1 flex flex-wrap items-center gap-3">
        <input
          readOnly
          aria-label={label}
          value={value}
          placeholder="…"
          className="min-w-0 flex-1 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900"
        />
        <CopyButton value={value} label={copyLabel} onCopied={() => recordStepDone("credentialsCopied")} />
      </div>
    </div>
  );
}

/** docs/product.md#credentials: toggles, username and password with copy, Test Connection. */
export function CredentialsCard({ credentials, username, options, proxy }: CredentialsCardProps) {
  const test = useTestConnection();
  // The operator's datacenter price; the hint names none until /config has answered.
  const dcPricePerGb = useConfig().data?.dc_price_per_gb_usd;
  const { password } = credentials;
  const canTest =
    username !== "" && password !== "" && !credentials.isLoading && !test.isPending && proxy !== null;

  function runTest() {
    if (!proxy) return;
    test.mutate(
      { username, password, proxy_host: proxy.host, proxy_port: proxy.port },
      { onSuccess: () => recordStepDone("connectionTested") },
    );
  }

  return (
    <CollapsibleCard cardId="credentials" title="Credentials">
      {credentials.error ? (
        <p
          role="alert"
          className="mb-4 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700"
        >
          Error loading credentials: {credentials.error.message}
        </p>
      ) : null}
      {credentials.temporary ? (
        <p className="mb-4 rounded-xl border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-900">
          These are temporary credentials.{" "}
          <Link
            to="/login"
            state={credentials.username ? { username: credentials.username, password } : undefined}
            className="font-semibold underline underline-offset-2"
          >
            Sign In to keep them
          </Link>{" "}
          and get your free data.
        </p>
      ) : null}
      <div className="space-y-4">
        <ToggleSwitch
          label="Sticky session"
          hint={STICKY_HINT}
          checked={options.sticky}
          onChange={options.setSticky}
        />
        {options.sticky ? (
          <Button variant="secondary" className="py-1.5 text-xs" onClick={options.rotateSession}>
            <RefreshCw aria-hidden="true" className="size-3.5" />
            New session
          </Button>
        ) : null}
        <ToggleSwitch
          label="Intelligence"
          hint={
            <>
              Route eligible requests over datacenter proxies
              {dcPricePerGb === undefined ? "" : ` (${formatMoney(dcPricePerGb)}/GB)`}.{" "}
              <Link to="/smart-routings" className="font-medium text-indigo-600 hover:text-indigo-500">
                See learned domains
              </Link>
            </>
          }
          checked={options.intelligence}
          onChange={options.setIntelligence}
        />
        <Field label="Username" value={username} copyLabel="Copy username" />
        <Field label="Password" value={password} copyLabel="Copy password" />
        <div className="space-y-3">
          <Button onClick={runTest} disabled={!canTest}>
            {test.isPending ? "Testing…" : "Test Connection"}
          </Button>
          {test.isSuccess ? <ConnectionTestSuccess message={PROXY_TEST_SUCCEEDED} data={test.data} /> : null}
          {test.isError ? <ConnectionTestError message={test.error.message} /> : null}
        </div>
      </div>
    </CollapsibleCard>
  );
}
