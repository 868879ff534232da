import type { MarginGroup, MarginRow } from "@bytetoll/contracts";
import { useState } from "react";
import { formatMoney } from "../../../lib/format.ts";
import { useMargins } from "../api/exits.ts";
import { AdminCard, AdminPageHeader, AdminScreen } from "./admin-card.tsx";
import { Badge } from "./badges.tsx";
import { type Column, DataTable } from "./data-table.tsx";
import { DayChart } from "./day-chart.tsx";
import { formatBytes } from "./network-figures.ts";
import { errorMessage, LoadingRows, StateMessage } from "./state-message.tsx";

const PERIODS = [7, 30, 90] as const;

const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** Dollars with cents, and below a cent with up to six decimals (costs per GB are small). */
function usd(value: number): string {
  return Math.abs(value) >= 0.01 || value === 0 ? formatMoney(value) : `$${value.toFixed(6)}`;
}

const COLUMNS: readonly Column<MarginRow>[] = [
  { header: "Name", wrap: true, cell: (row) => <span className="break-all">{row.label}</span> },
  { header: "Bytes", numeric: true, cell: (row) => formatBytes(row.bytes) },
  { header: "Billed", numeric: true, cell: (row) => usd(row.billed_usd) },
  { header: "Cost", numeric: true, cell: (row) => usd(row.cost_usd) },
  {
    header: "Margin",
    numeric: true,
    cell: (row) =>
      row.margin_usd < 0 ? (
        <span className="inline-flex items-center gap-2 font-semibold text-red-700">
          {usd(row.margin_usd)} <Badge tone="bad">Loss</Badge>
        </span>
      ) : (
        usd(row.margin_usd)
      ),
  },
];

function MarginTable({
  title,
  groupBy,
  from,
  to,
}: {
  title: string;
  groupBy: MarginGroup;
  from: string;
  to: string;
}) {
  const margins = useMargins(from, to, groupBy);
  return (
    <AdminCard title={title}>
      {margins.isPending ? (
        <LoadingRows rows={3} label={`Loading ${title.toLowerCase()}`} />
      ) : margins.isError ? (
        <StateMessage error onRetry={() => void margins.refetch()}>
          {errorMessage(margins.error)}
        </StateMessage>
      ) : margins.data.rows.length === 0 ? (
        <StateMessage>No traffic through any exit in this period.</StateMessage>
      ) : (
        <DataTable
          caption={title}
          columns={COLUMNS}
          rows={[...margins.data.rows, margins.data.total]}
          rowKey={(row) => row.key}
        />
      )}
    </AdminCard>
  );
}

/** /admin/margins: what customers were billed against what the exits cost, by day, exit, pool and
 * customer; losses marked. */
export function MarginsPage() {
  const [days, setDays] = useState<(typeof PERIODS)[number]>(30);
  const from = utcDay(days - 1);
  const to = utcDay(0);
  const byDay = useMargins(from, to, "day");
  return (
    <AdminScreen>
      <AdminPageHeader
        title="Margins"
        description="Billed at the tariff the traffic was billed at, against each exit's cost per GB when the bytes moved (UTC days)."
        actions={
          <fieldset className="flex gap-1 rounded-lg bg-slate-100 p-1">
            <legend className="sr-only">Period</legend>
            {PERIODS.map((period) => (
              <label
                key={period}
                className="cursor-pointer rounded-md px-3 py-1 text-sm has-[:checked]:bg-white has-[:checked]:font-semibold has-[:checked]:shadow-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500"
              >
                <input
                  type="radio"
                  name="margin-period"
                  className="sr-only"
                  checked={days === period}
                  onChange={() => setDays(period)}
                />
                {period} days
              </label>
            ))}
          </fieldset>
        }
      />
      <AdminCard title="Billed and cost by day">
        {byDay.isPending ? (
          <LoadingRows rows={3} label="Loading margins" />
        ) : byDay.isError ? (
          <StateMessage error onRetry={() => void byDay.refetch()}>
            {errorMessage(byDay.error)}
          </StateMessage>
        ) : byDay.data.rows.length === 0 ? (
          <StateMessage>No traffic through any exit in this period.</StateMessage>
        ) : (
          <DayChart
            caption="Billed and cost by day"
            rows={byDay.data.rows.map((row) => ({
              day: row.key,
              billed: row.billed_usd,
              cost: row.cost_usd,
            }))}
            series={[
              { key: "billed", name: "Billed", color: "#4f46e5" },
              { key: "cost", name: "Cost", color: "#f59e0b" },
            ]}
            format={usd}
          />
        )}
      </AdminCard>
      <MarginTable title="By exit" groupBy="upstream" from={from} to={to} />
      <MarginTable title="By pool" groupBy="pool" from={from} to={to} />
      <MarginTable title="By customer" groupBy="customer" from={from} to={to} />
    </AdminScreen>
  );
}
