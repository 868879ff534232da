import {
  CITY_PATTERN,
  PROXY_TEST_SUCCEEDED,
  SESSION_MINUTES_MAX,
  SESSION_MINUTES_MIN,
  sessionMinutesProblem,
} from "@bytetoll/contracts";
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
  if (countries.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        Exit country: any. No exit of this network is tagged with a country yet, so a request cannot choose
        one.
      </p>
    );
  }
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

/** `-city-`: handed to exits whose provider takes a city. No exit lists its cities, so the city
 * is typed as the provider spells it; one the gateway would refuse is named in its own words. */
function CityField({ options }: { options: UsernameOptionsState }) {
  const [text, setText] = useState(options.city ?? "");
  const problem = text === "" || CITY_PATTERN.test(text) ? null : `Bad city '${text}': 2–40 of a–z and _`;
  return (
    <div className="space-y-1">
      <label className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
        Exit city
        <input
          value={text}
          placeholder="any (e.g. new_york)"
          aria-invalid={problem !== null}
          aria-describedby="exit-city-hint"
          onChange={(event) => {
            const typed = event.target.value;
            setText(typed);
            if (typed === "") options.setCity(null);
            else if (CITY_PATTERN.test(typed)) options.setCity(typed);
          }}
          className="w-48 max-w-full rounded-lg border border-slate-200 px-2 py-1.5 text-sm text-slate-900"
        />
      </label>
      {problem === null ? null : (
        <p role="alert" className="text-sm text-red-700">
          {problem}. The username keeps {options.city ? `'${options.city}'` : "no city"}.
        </p>
      )}
      <p id="exit-city-hint" className="text-xs text-slate-600">
        Passed to exits whose provider chooses by city; the others ignore it. No exit of this network lists
        its cities, so none can be offered here: type the city as your provider spells it.
      </p>
    </div>
  );
}

/** `-sesstime-`: how long the sticky session keeps its exit after its last use. */
function SessionLifetime({ options }: { options: UsernameOptionsState }) {
  // The text as typed: a half-typed number ("" on the way to "60") must not snap back.
  const [text, setText] = useState(String(options.sessionMinutes));
  // The gateway's own words for a lifetime it would refuse; the username keeps the last good one.
  const problem = sessionMinutesProblem(text);
  return (
    <div className="space-y-1">
      <label className="flex items-center gap-2 text-sm text-slate-700">
        Session lifetime (minutes)
        <input
          type="number"
          min={SESSION_MINUTES_MIN}
          max={SESSION_MINUTES_MAX}
          value={text}
          aria-invalid={problem !== null}
          aria-describedby={problem === null ? undefined : "session-lifetime-problem"}
          onChange={(event) => {
            setText(event.target.value);
            if (sessionMinutesProblem(event.target.value) === null)
              options.setSessionMinutes(Number(event.target.value));
          }}
          className="w-24 rounded-lg border border-slate-200 px-2 py-1.5 text-sm text-slate-900"
        />
      </label>
      {problem === null ? null : (
        <p id="session-lifetime-problem" role="alert" className="text-sm text-red-700">
          {problem}. The username keeps {options.sessionMinutes} minutes.
        </p>
      )}
    </div>
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
        <CityField options={options} />
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
