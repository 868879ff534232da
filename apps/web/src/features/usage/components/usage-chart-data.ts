import type { UsageMetrics } from "@bytetoll/contracts";
import { formatGb } from "../../../lib/format.ts";

/** The metric radio of docs/product.md#routes-and-layout: GB Used or Requests. */
export type UsageMetric = "gb" | "requests";

export const METRIC_LABELS: Record<UsageMetric, string> = { gb: "GB Used", requests: "Requests" };

/** docs/product.md#routes-and-layout: mobile darker grey, DC lighter grey (gray-700 / gray-400: both visible on white). */
export const MOBILE_COLOR = "#374151";
export const DC_COLOR = "#9ca3af";

/** One bar (or the donut) in chart terms: a label and the mobile and DC parts of the metric. */
export interface ChartDatum {
  label: string;
  mobile: number;
  dc: number;
}

export function toDatum(row: UsageMetrics, metric: UsageMetric, label: string): ChartDatum {
  return metric === "gb"
    ? { label, mobile: row.mobile_gb, dc: row.dc_gb }
    : { label, mobile: row.mobile_requests, dc: row.dc_requests };
}

/** "No data available." when nothing at all was used in the window, whichever metric is shown. */
export function hasTraffic(rows: readonly UsageMetrics[]): boolean {
  return rows.some(
    (row) => row.mobile_gb > 0 || row.dc_gb > 0 || row.mobile_requests > 0 || row.dc_requests > 0,
  );
}

const requestsFormat = new Intl.NumberFormat("en-US");

export function formatMetric(value: number, metric: UsageMetric): string {
  return metric === "gb" ? formatGb(value) : requestsFormat.format(value);
}

const compactFormat = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** Axis ticks: "1.3M" rather than "1,300,000", so they fit on a phone. */
export function formatAxisTick(value: number, metric: UsageMetric): string {
  return metric === "gb" ? `${compactFormat.format(value)} GB` : compactFormat.format(value);
}

/** Sums in GB are re-rounded to 2 decimals so 0.1 + 0.2 never shows as 0.30000000000000004. */
export function totalOf(datum: ChartDatum, metric: UsageMetric): number {
  const total = datum.mobile + datum.dc;
  return metric === "gb" ? Math.round(total * 100) / 100 : total;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** "2025-03-01" → "Mar 1": the UTC day as filed, never shifted by the viewer's time zone. */
export function formatUsageDay(date: string): string {
  const [, month, day] = date.split("-").map(Number);
  return `${MONTHS[(month ?? 1) - 1]} ${day}`;
}
