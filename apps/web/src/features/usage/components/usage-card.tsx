import type { UsagePeriod } from "@bytetoll/contracts";
import { type ReactNode, Suspense, useId } from "react";
import { MetricRadio } from "./metric-radio.tsx";
import { PeriodSelect } from "./period-select.tsx";
import type { UsageMetric } from "./usage-chart-data.ts";

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

export interface UsageCardProps {
  title: string;
  metric: UsageMetric;
  onMetricChange: (metric: UsageMetric) => void;
  period: UsagePeriod;
  onPeriodChange: (period: UsagePeriod) => void;
  /** The state of the card's query: pending (no data yet), an error message, or data. */
  state:
    | { status: "pending" }
    | { status: "error"; message: string }
    | { status: "empty" }
    | { status: "ready" };
  /** The lazily loaded chart; only rendered once data is ready. */
  chart: () => ReactNode;
  /** The same numbers as a table for screen readers (the chart itself is a picture). */
  table: () => ReactNode;
}

/** One of the three Usage cards of docs/product.md#routes-and-layout: title, metric radio, period selector, chart. */
export function UsageCard({
  title,
  metric,
  onMetricChange,
  period,
  onPeriodChange,
  state,
  chart,
  table,
}: UsageCardProps) {
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className="min-w-0 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={titleId} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <MetricRadio value={metric} onChange={onMetricChange} />
          <PeriodSelect value={period} onChange={onPeriodChange} label={`${title} period`} />
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
            <Suspense fallback={<ChartMessage>{LOADING_CHART}</ChartMessage>}>{chart()}</Suspense>
            {table()}
          </>
        )}
      </div>
    </section>
  );
}
