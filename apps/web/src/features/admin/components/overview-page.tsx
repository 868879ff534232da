import { OVERVIEW_DAYS, type Overview } from "@bytetoll/contracts";
import { formatGb, formatMoney } from "../../../lib/format.ts";
import { useNetwork } from "../api/get-network.ts";
import { useOverview } from "../api/get-overview.ts";
import { useListParams } from "../hooks/use-list-params.ts";
import { AdminCard, AdminPageHeader, AdminScreen } from "./admin-card.tsx";
import { DayChart } from "./day-chart.tsx";
import { JobsCard } from "./jobs-card.tsx";
import { formatLag, formatRate, networkTotals } from "./network-figures.ts";
import { PeriodSwitch } from "./period-switch.tsx";
import { StatGrid, StatTile } from "./stat-tile.tsx";
import { errorMessage, LoadingRows, StateMessage } from "./state-message.tsx";

export const NO_REVENUE = "No paid orders in this period.";
export const NO_TRAFFIC = "No data sold or used in this period.";
export const NO_REFUSALS = "The gateways refused no request in this period.";
export const NO_INSTANCES = "No gateway instance has reported in the last minute.";

const dollars = (cents: number) => formatMoney(cents / 100);
/** A refusal's share of the requests: "2.5 %", "0.04 %", "< 0.01 %". */
export function formatShare(share: number): string {
  const percent = share * 100;
  if (percent > 0 && percent < 0.01) return "< 0.01 %";
  return `${Number(percent.toFixed(percent < 1 ? 2 : 1))} %`;
}

const REVENUE_SERIES = [{ key: "usd", name: "Revenue", color: "#4f46e5" }] as const;
const DATA_SERIES = [
  { key: "sold_gb", name: "GB sold", color: "#4f46e5" },
  { key: "used_gb", name: "GB used", color: "#10b981" },
] as const;

/** /admin: the business over 1, 7, 30 or 90 days, the gateways right now, the background jobs. */
export function OverviewPage() {
  const { filters, setFilters } = useListParams(["days"] as const);
  const days = (OVERVIEW_DAYS as readonly number[]).includes(Number(filters.days)) ? Number(filters.days) : 7;
  const overview = useOverview(days);

  return (
    <AdminScreen>
      <AdminPageHeader
        title="Overview"
        description="Days are UTC; revenue counts what was paid and not refunded."
        actions={
          <PeriodSwitch
            value={days}
            onChange={(next) => setFilters({ days: next === 7 ? "" : String(next) })}
          />
        }
      />
      {overview.isPending ? (
        <LoadingRows rows={4} label="Loading overview" />
      ) : !overview.data ? (
        <StateMessage error onRetry={() => void overview.refetch()}>
          {errorMessage(overview.error)}
        </StateMessage>
      ) : (
        <Business overview={overview.data} />
      )}
      <LiveNetwork />
      <JobsCard />
    </AdminScreen>
  );
}

function Business({ overview }: { overview: Overview }) {
  const revenueRows = overview.revenue.by_day.map((day) => ({ day: day.day, usd: day.cents }));
  return (
    <>
      <StatGrid label="Business">
        <StatTile
          label="Revenue"
          value={dollars(overview.revenue.total_cents)}
          hint={`${overview.from} – ${overview.to}`}
        />
        <StatTile
          label="GB sold / used"
          value={`${formatGb(overview.data.sold_gb)} / ${formatGb(overview.data.used_gb)}`}
        />
        <StatTile
          label="New customers"
          value={overview.customers.new}
          hint={`${overview.customers.total} in all`}
        />
        <StatTile
          label="Active customers"
          value={overview.customers.active}
          hint={`${overview.customers.disabled} disabled`}
        />
      </StatGrid>
      <div className="grid gap-6 lg:grid-cols-2">
        <AdminCard title="Revenue by day">
          {overview.revenue.total_cents === 0 ? (
            <StateMessage>{NO_REVENUE}</StateMessage>
          ) : (
            <DayChart caption="Revenue by day" rows={revenueRows} series={REVENUE_SERIES} format={dollars} />
          )}
        </AdminCard>
        <AdminCard title="GB sold and used by day">
          {overview.data.sold_gb === 0 && overview.data.used_gb === 0 ? (
            <StateMessage>{NO_TRAFFIC}</StateMessage>
          ) : (
            <DayChart
              caption="GB sold and used by day"
              rows={overview.data.by_day}
              series={DATA_SERIES}
              format={formatGb}
            />
          )}
        </AdminCard>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <AdminCard title="Revenue by provider">
          {overview.revenue.by_provider.length === 0 ? (
            <StateMessage>{NO_REVENUE}</StateMessage>
          ) : (
            <SimpleRows
              rows={overview.revenue.by_provider.map((row) => [
                row.provider,
                `${row.orders} ${row.orders === 1 ? "order" : "orders"}`,
                dollars(row.cents),
              ])}
            />
          )}
        </AdminCard>
        <AdminCard title="Refused payment callbacks">
          {overview.payment_rejections.length === 0 ? (
            <StateMessage>None in this period.</StateMessage>
          ) : (
            <SimpleRows
              rows={overview.payment_rejections.map((row) => [row.reason, "", String(row.count)])}
            />
          )}
        </AdminCard>
      </div>
      <AdminCard title="Proxy refusals by reason">
        {overview.refusals.by_reason.length === 0 ? (
          <StateMessage>{NO_REFUSALS}</StateMessage>
        ) : (
          <>
            <p className="px-4 pt-3 text-sm text-slate-500 sm:px-6">
              Share of the {overview.refusals.requests.toLocaleString("en-US")} requests the gateways answered
              in this period (served and refused).
            </p>
            <SimpleRows
              rows={overview.refusals.by_reason.map((row) => [
                row.reason,
                `${formatShare(row.share)} of requests`,
                row.count.toLocaleString("en-US"),
              ])}
            />
          </>
        )}
      </AdminCard>
    </>
  );
}

function LiveNetwork() {
  const network = useNetwork();
  const totals = network.data ? networkTotals(network.data.instances) : null;
  return (
    <AdminCard title="Gateways right now">
      {network.isPending ? (
        <LoadingRows rows={2} label="Loading gateways" />
      ) : !network.data || !totals ? (
        <StateMessage error onRetry={() => void network.refetch()}>
          {errorMessage(network.error)}
        </StateMessage>
      ) : totals.instances === 0 ? (
        <StateMessage>{NO_INSTANCES}</StateMessage>
      ) : (
        <div className="space-y-4 p-4 sm:p-6">
          <StatGrid label="Gateways">
            <StatTile label="Instances" value={totals.instances} />
            <StatTile label="Connections" value={totals.connections} />
            <StatTile label="Throughput" value={formatRate(totals.bytesPerSecond)} />
            <StatTile label="Flush lag" value={formatLag(totals.worstFlushLag)} hint="Oldest unsaved byte" />
          </StatGrid>
          <div>
            <h3 className="text-sm font-semibold text-slate-900">Refusals since start, by reason</h3>
            {totals.refusals.length === 0 ? (
              <p className="mt-1 text-sm text-slate-500">None.</p>
            ) : (
              <SimpleRows rows={totals.refusals.map(([reason, count]) => [reason, "", String(count)])} />
            )}
          </div>
        </div>
      )}
    </AdminCard>
  );
}

/** Name, detail, figure: a short list of rows. */
function SimpleRows({ rows }: { rows: ReadonlyArray<readonly [string, string, string]> }) {
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {rows.map(([name, detail, figure]) => (
        <li key={name} className="flex items-center justify-between gap-3 px-4 py-2.5 sm:px-6">
          <span className="font-medium text-slate-900">{name}</span>
          <span className="ml-auto text-slate-500">{detail}</span>
          <span className="w-24 text-right text-slate-900 tabular-nums">{figure}</span>
        </li>
      ))}
    </ul>
  );
}
