import { DEFAULT_USAGE_DAYS, type UsageGrouping } from "@bytetoll/contracts";
import { type ComponentType, type ReactNode, Suspense, useId } from "react";
import { type UsageRowsByGrouping, useUsage } from "../api/get-usage.ts";
import { useUsageCardControls } from "../hooks/use-usage-card-controls.ts";
import { cardState } from "./card-state.ts";
import { MetricRadio } from "./metric-radio.tsx";
import { PeriodSelect } from "./period-select.tsx";
import type { ChartDatum, UsageMetric } from "./usage-chart-data.ts";
import { UsageDataTable } from "./usage-data-table.tsx";

export const LOADING_CHART = "Loading chart…";
export const NO_DATA = "No data available.";

export function ChartMessage({ children, alert = false }: { children: ReactNode; alert?: boolean }) {
  return (
    <div
      role={alert ? "alert" : "status"}
      className={`flex h-48 items-center justify-center text-sm ${alert ? "text-red-600" : "text-slate-500"}`}
    >
      {children}
    </div>
  );
}

/** What sets one Usage card apart from the others: its grouping, words, data and chart. */
export interface UsageCardKind<G extends UsageGrouping> {
  groupBy: G;
  title: string;
  /** Top 5 by total with the remainder grouped as Others — the server does the grouping. */
  withOthers?: boolean;
  /** The rows as chart points for `metric`. */
  toData: (rows: UsageRowsByGrouping[G], metric: UsageMetric) => ChartDatum[];
  /** The lazily loaded chart; only rendered once data is ready. */
  Chart: ComponentType<{ data: ChartDatum[]; metric: UsageMetric }>;
  /** The same numbers as a table for screen readers (the chart itself is a picture). */
  table: { caption: string; firstColumn: string };
}

/** One Usage card: title, metric radio, period selector, chart and its table. */
export function UsageCard<G extends UsageGrouping>({
  kind,
  subuser,
}: {
  kind: UsageCardKind<G>;
  /** The page's sub-user choice (undefined: every credential's usage). */
  subuser?: string;
}) {
  const { metric, setMetric, period, setPeriod, queryPeriod } = useUsageCardControls(
    DEFAULT_USAGE_DAYS[kind.groupBy],
  );
  const query = useUsage(kind.groupBy, queryPeriod, kind.withOthers, subuser);
  const state = cardState(query);
  const data = query.data ? kind.toData(query.data, metric) : [];
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className="min-w-0 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={titleId} className="text-base font-semibold text-slate-900">
          {kind.title}
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <MetricRadio value={metric} onChange={setMetric} />
          <PeriodSelect value={period} onChange={setPeriod} label={`${kind.title} period`} />
        </div>
      </div>
      <div className="mt-4">
        {state.status === "pending" ? (
          <ChartMessage>{LOADING_CHART}</ChartMessage>
        ) : state.status === "error" ? (
          <ChartMessage alert>{state.message}</ChartMessage>
        ) : state.status === "empty" ? (
          <ChartMessage>{NO_DATA}</ChartMessage>
        ) : (
          <>
            <Suspense fallback={<ChartMessage>{LOADING_CHART}</ChartMessage>}>
              <kind.Chart data={data} metric={metric} />
            </Suspense>
            <UsageDataTable {...kind.table} data={data} metric={metric} />
          </>
        )}
      </div>
    </section>
  );
}
