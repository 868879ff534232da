import { PROXY_TEST_SUCCEEDED, SESSION_MINUTES_MAX, SESSION_MINUTES_MIN } from "@bytetoll/contracts";
import { RefreshCw } from "lucide-react";
import { useState } from "react";
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

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });

/** The exit country (`-country-`), offered only when the operator's exits name countries. */
function CountrySelect({ options, countries }: { options: UsernameOptionsState; countries: string[] }) {
  if (countries.length === 0) return null;
  return (
    <label className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
      Exit country
      <select
        value={options.country ?? ""}
        onChange={(event) => options.setCountry(event.target.value === "" ? null : event.target.value)}
        className="rounded-lg border border-slate-200 px-3 py-1.5 text-sm text-slate-900"
      >
        <option value="">Any country</option>
        {countries.map((code) => (
          <option key={code} value={code}>
            {countryNames.of(code) ?? code} ({code})
          </option>
        ))}
      </select>
    </label>
  );
}

/** `-sesstime-`: how long the sticky session keeps its exit after its last use. */
function SessionLifetime({ options }: { options: UsernameOptionsState }) {
  // The text as typed: a half-typed number ("" on the way to "60") must not snap back.
  const [text, setText] = useState(String(options.sessionMinutes));
  const minutes = Number(text);
  const valid = /^\d+$/.test(text) && minutes >= SESSION_MINUTES_MIN && minutes <= SESSION_MINUTES_MAX;
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      Session lifetime (minutes)
      <input
        type="number"
        min={SESSION_MINUTES_MIN}
        max={SESSION_MINUTES_MAX}
        value={text}
        aria-invalid={!valid}
        onChange={(event) => {
          setText(event.target.value);
          const next = Number(event.target.value);
          if (Number.isInteger(next) && next >= SESSION_MINUTES_MIN && next <= SESSION_MINUTES_MAX)
            options.setSessionMinutes(next);
        }}
        className="w-24 rounded-lg border border-slate-200 px-2 py-1.5 text-sm text-slate-900"
      />
    </label>
  );
}

/** docs/product.md#credentials: toggles, username and password with copy, Test Connection. */
export function CredentialsCard({ credentials, username, options, proxy }: CredentialsCardProps) {
  const test = useTestConnection();
  // The operator's datacenter price; the hint names none until /config has answered.
  const config = useConfig().data;
  const dcPricePerGb = config?.dc_price_per_gb_usd;
  const countries = config?.gateway.exit_countries ?? [];
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
          <div className="flex flex-wrap items-center gap-3">
            <Button variant="secondary" className="py-1.5 text-xs" onClick={options.rotateSession}>
              <RefreshCw aria-hidden="true" className="size-3.5" />
              New session
            </Button>
            <SessionLifetime options={options} />
          </div>
        ) : null}
        <CountrySelect options={options} countries={countries} />
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
