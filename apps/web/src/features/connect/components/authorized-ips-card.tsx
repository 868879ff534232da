import { ALLOWLIST_MAX_ENTRIES } from "@bytetoll/contracts";
import { useQuery } from "@tanstack/react-query";
import { Plus, X } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { allowlistQueryOptions, useSaveAllowlist } from "../api/allowlist.ts";
import { CollapsibleCard } from "./collapsible-card.tsx";

/** docs/product.md#ip-allowlist: addresses that may use the proxy without credentials. */
export function AuthorizedIpsCard() {
  const allowlist = useQuery(allowlistQueryOptions());
  const save = useSaveAllowlist();
  const [entry, setEntry] = useState("");
  const ips = allowlist.data?.ips ?? [];
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
        IPv4, /48 for IPv6).
      </p>
      {allowlist.error ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          Error loading authorized IPs: {allowlist.error.message}
        </p>
      ) : null}
      <ul aria-label="Authorized IPs" className="mt-3 space-y-2">
        {ips.map((ip) => (
          <li key={ip} className="flex items-center justify-between rounded-lg bg-slate-50 px-3 py-2">
            <span className="font-mono text-sm text-slate-900">{ip}</span>
            <Button
              variant="secondary"
              className="py-1 text-xs"
              aria-label={`Remove ${ip}`}
              disabled={save.isPending}
              onClick={() => replace(ips.filter((other) => other !== ip))}
            >
              <X aria-hidden="true" className="size-3.5" />
            </Button>
          </li>
        ))}
      </ul>
      <form onSubmit={add} className="mt-3 flex flex-wrap items-center gap-3">
        <input
          aria-label="IP address or range"
          value={entry}
          onChange={(event) => setEntry(event.target.value)}
          placeholder="203.0.113.7 or 203.0.113.0/24"
          className="min-w-0 flex-1 rounded-lg border border-slate-200 px-3 py-2 font-mono text-sm text-slate-900"
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
      {save.error ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {save.error.message}
        </p>
      ) : null}
    </CollapsibleCard>
  );
}
