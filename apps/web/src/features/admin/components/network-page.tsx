import type { GatewayInstance, UpstreamHealth } from "@bytetoll/contracts";
import { formatDateTime } from "../../../lib/format.ts";
import { useNetwork } from "../api/get-network.ts";
import { AdminCard, AdminPageHeader, AdminScreen } from "./admin-card.tsx";
import { StatusBadge } from "./badges.tsx";
import { type Column, DataTable } from "./data-table.tsx";
import { DomainsCard } from "./domains-card.tsx";
import { formatBytes, formatLag, formatPercent, formatRate } from "./network-figures.ts";
import { errorMessage, LoadingRows, StateMessage } from "./state-message.tsx";

export const NO_LIVE_INSTANCES = "No gateway instance has reported in the last minute.";
export const NO_UPSTREAMS = "No upstream has carried traffic in the last hour.";

const INSTANCE_COLUMNS: readonly Column<GatewayInstance>[] = [
  {
    header: "Instance",
    cell: (instance) => <span className="font-mono text-xs">{instance.instance_id}</span>,
  },
  { header: "Started", cell: (instance) => formatDateTime(instance.started_at) },
  { header: "Connections", numeric: true, cell: (instance) => instance.live_connections },
  { header: "Throughput", numeric: true, cell: (instance) => formatRate(instance.bytes_per_second) },
  { header: "Flush lag", numeric: true, cell: (instance) => formatLag(instance.flush_lag_seconds) },
  {
    header: "Refusals",
    cell: (instance) => {
      const entries = Object.entries(instance.refusals).filter(([, count]) => count > 0);
      return entries.length === 0 ? (
        <span className="text-slate-500">None</span>
      ) : (
        <span className="text-xs">{entries.map(([reason, count]) => `${reason} ${count}`).join(" · ")}</span>
      );
    },
  },
];

const UPSTREAM_COLUMNS: readonly Column<UpstreamHealth>[] = [
  { header: "Pool", cell: (upstream) => (upstream.pool === "dc" ? "Datacenter" : "Mobile") },
  {
    header: "Upstream",
    cell: (upstream) => <span className="font-mono text-xs">{upstream.upstream_id}</span>,
  },
  {
    header: "State",
    cell: (upstream) => (
      <span className="inline-flex items-center gap-2">
        <StatusBadge status={upstream.status} />
        {upstream.down_on.length > 0 ? (
          <span className="text-xs text-slate-500">down on {upstream.down_on.length}</span>
        ) : null}
      </span>
    ),
  },
  { header: "Success", numeric: true, cell: (upstream) => formatPercent(upstream.success_rate) },
  {
    header: "Attempts",
    numeric: true,
    cell: (upstream) => `${upstream.attempts} (${upstream.failures} failed)`,
  },
  {
    header: "Median connect",
    numeric: true,
    cell: (upstream) =>
      upstream.median_connect_ms === null ? "—" : `${Math.round(upstream.median_connect_ms)} ms`,
  },
  { header: "Bytes", numeric: true, cell: (upstream) => formatBytes(upstream.bytes) },
];

/** /admin/network: the gateway instances, every upstream exit's last hour, and Intelligence's
 * domain verdicts with the operator's overrides. */
export function NetworkPage() {
  const network = useNetwork();
  const data = network.data;
  return (
    <AdminScreen>
      <AdminPageHeader
        title="Network"
        description={
          data
            ? `Live figures, refreshed every few seconds; upstreams over the last ${data.window_minutes} minutes.`
            : "Live figures, refreshed every few seconds."
        }
      />
      {network.isPending ? (
        <LoadingRows rows={4} label="Loading network" />
      ) : !data ? (
        <StateMessage error onRetry={() => void network.refetch()}>
          {errorMessage(network.error)}
        </StateMessage>
      ) : (
        <>
          <AdminCard title="Gateway instances">
            {data.instances.length === 0 ? (
              <StateMessage>{NO_LIVE_INSTANCES}</StateMessage>
            ) : (
              <DataTable
                caption="Gateway instances"
                columns={INSTANCE_COLUMNS}
                rows={data.instances}
                rowKey={(instance) => instance.instance_id}
              />
            )}
          </AdminCard>
          <AdminCard title="Upstreams">
            {data.upstreams.length === 0 ? (
              <StateMessage>{NO_UPSTREAMS}</StateMessage>
            ) : (
              <DataTable
                caption="Upstreams"
                columns={UPSTREAM_COLUMNS}
                rows={data.upstreams}
                rowKey={(upstream) => `${upstream.pool} ${upstream.upstream_id}`}
              />
            )}
          </AdminCard>
        </>
      )}
      <DomainsCard />
    </AdminScreen>
  );
}
