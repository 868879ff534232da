import { ALLOWLIST_MAX_ENTRIES } from "@bytetoll/contracts";
import { useQuery } from "@tanstack/react-query";
import { Plus, X } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { CopyButton } from "../../../components/ui/copy-button.tsx";
import { allowlistQueryOptions, useSaveAllowlist } from "../api/allowlist.ts";
import { allowlistedExampleCode } from "../example-snippets.ts";
import { AllowlistProof } from "./allowlist-proof.tsx";
import { CollapsibleCard } from "./collapsible-card.tsx";

/** How a client on an authorized address uses the proxy: no credentials at all. The lines wrap
 * rather than scroll, so the block needs no keyboard stop of its own. */
function NoCredentialsExample({ proxy }: { proxy: AllowlistedProxy }) {
  const code = allowlistedExampleCode(proxy);
  return (
    <div className="mt-3">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium text-slate-900">From an authorized address</p>
        <CopyButton value={code} label="Copy the example without credentials" />
      </div>
      <pre className="mt-1 rounded-lg bg-slate-900 p-3 text-xs break-all whitespace-pre-wrap text-slate-100">
        <code>{code}</code>
      </pre>
    </div>
  );
}

export interface AllowlistedProxy {
  host: string;
  port: number;
  socksPort: number | null;
}

/** docs/product.md#ip-allowlist: addresses that may use the proxy without credentials. */
export function AuthorizedIpsCard({ proxy }: { proxy: AllowlistedProxy | null }) {
  const allowlist = useQuery(allowlistQueryOptions());
  const save = useSaveAllowlist();
  const [entry, setEntry] = useState("");
  const ips = allowlist.data?.ips ?? [];
  const pending = new Map((allowlist.data?.pending ?? []).map((entry) => [entry.ip, entry]));
  const yourIp = allowlist.data?.your_ip;
  const full = ips.length >= ALLOWLIST_MAX_ENTRIES;

  function replace(next: string[], onSaved?: () => void) {
    save.mutate(next, { onSuccess: onSaved });
  }

  function add(event: FormEvent) {
    event.preventDefault();
    const text = entry.trim();
    if (text) replace([...ips, text], () => setEntry(""));
  }

  return (
    <CollapsibleCard cardId="authorized-ips" title="Authorized IPs">
      <p className="text-sm text-slate-600">
        Connections from these addresses need no username or password (HTTP, HTTPS and SOCKS5): they use your
        account with the default options. Up to {ALLOWLIST_MAX_ENTRIES} addresses or ranges (at most /24 for
        IPv4, /48 for IPv6). An entry takes effect once proven from its address: at once for your own, by
        opening its proof link there for the others.
      </p>
      {allowlist.error ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          Error loading authorized IPs: {allowlist.error.message}
        </p>
      ) : null}
      <ul aria-label="Authorized IPs" className="mt-3 space-y-2">
        {ips.map((ip) => {
          const waiting = pending.get(ip);
          return (
            <li key={ip} className="rounded-lg bg-slate-50 px-3 py-2">
              <div className="flex items-center justify-between gap-2">
                <span className="min-w-0 break-all font-mono text-sm text-slate-900">{ip}</span>
                <span className="ml-auto text-xs text-slate-600">
                  {waiting ? "Waiting for proof" : "Active"}
                </span>
                <Button
                  variant="secondary"
                  className="py-1 text-xs"
                  aria-label={`Remove ${ip}`}
                  disabled={save.isPending}
                  onClick={() => replace(ips.filter((other) => other !== ip))}
                >
                  <X aria-hidden="true" className="size-3.5" />
                </Button>
              </div>
              {waiting ? (
                <AllowlistProof pending={waiting} renewing={save.isPending} onRenew={() => replace(ips)} />
              ) : null}
            </li>
          );
        })}
      </ul>
      <form onSubmit={add} className="mt-3 flex flex-wrap items-center gap-3">
        <input
          aria-label="IP address or range"
          value={entry}
          onChange={(event) => setEntry(event.target.value)}
          placeholder="203.0.113.7 or 203.0.113.0/24"
          className="min-w-0 grow basis-full rounded-lg sm:basis-0 border border-slate-200 px-3 py-2 font-mono text-sm text-slate-900"
        />
        <Button type="submit" disabled={save.isPending || full || entry.trim() === ""}>
          <Plus aria-hidden="true" className="size-4" />
          Add
        </Button>
        {yourIp && !ips.includes(yourIp) ? (
          <Button
            variant="secondary"
            disabled={save.isPending || full}
            onClick={() => replace([...ips, yourIp])}
          >
            Add my IP ({yourIp})
          </Button>
        ) : null}
      </form>
      {proxy ? <NoCredentialsExample proxy={proxy} /> : null}
      {save.error ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {save.error.message}
        </p>
      ) : null}
    </CollapsibleCard>
  );
}
