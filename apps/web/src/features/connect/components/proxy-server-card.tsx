import type { ProxyServer } from "@bytetoll/contracts";
import { CopyButton } from "../../../components/ui/copy-button.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { CollapsibleCard } from "./collapsible-card.tsx";

function Row({ label, value, copyLabel }: { label: string; value: string; copyLabel?: string }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 py-2">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="flex items-center gap-3">
        <code className="rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-800">{value}</code>
        {copyLabel ? <CopyButton value={value} label={copyLabel} /> : null}
      </dd>
    </div>
  );
}

/** docs/product.md#proxy-server: protocols, hostname, fixed IP and the ports (SOCKS5 when it is on). */
export function ProxyServerCard({ server }: { server: ProxyServer | undefined }) {
  return (
    <CollapsibleCard cardId="proxy-server" title="Proxy Server">
      {server ? (
        <dl className="divide-y divide-slate-100">
          <Row label="Protocols" value={server.socks_port === null ? "HTTP, HTTPS" : "HTTP, HTTPS, SOCKS5"} />
          <Row label="Hostname" value={server.host} copyLabel="Copy hostname" />
          <Row label="IP address" value={server.ip ?? "Not resolvable"} />
          <Row label="HTTP port" value={String(server.http_port)} />
          <Row label="HTTPS port" value={String(server.https_port)} />
          {server.socks_port === null ? null : <Row label="SOCKS5 port" value={String(server.socks_port)} />}
        </dl>
      ) : (
        <div className="space-y-3" data-testid="proxy-server-loading">
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-5 w-2/3" />
        </div>
      )}
    </CollapsibleCard>
  );
}
