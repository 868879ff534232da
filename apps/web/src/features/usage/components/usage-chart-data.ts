import { BYTES_PER_GB, type UsageMetrics } from "@bytetoll/contracts";
import { formatDataAmount } from "../../../lib/format.ts";

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

/** GB from the exact byte counts, not the API's GB rounded to 2 decimals: a few KB stays a few KB. */
export function toDatum(row: UsageMetrics, metric: UsageMetric, label: string): ChartDatum {
  return metric === "gb"
    ? { label, mobile: row.mobile_bytes / BYTES_PER_GB, dc: row.dc_bytes / BYTES_PER_GB }
    : { label, mobile: row.mobile_requests, dc: row.dc_requests };
}

/** A datum with nothing in it. */
export const emptyDatum = (label: string): ChartDatum => ({ label, mobile: 0, dc: 0 });

/** "No data available." when nothing at all was used in the window, whichever metric is shown. */
export function hasTraffic(rows: readonly UsageMetrics[]): boolean {
  return rows.some(
    (row) => row.mobile_bytes > 0 || row.dc_bytes > 0 || row.mobile_requests > 0 || row.dc_requests > 0,
  );
}

const requestsFormat = new Intl.NumberFormat("en-US");

/** 1 GB is 1,000 MB and 1,000,000 KB, as the ledger counts bytes (10^9 per GB). */
const MB_PER_GB = 1000;
const KB_PER_GB = 1_000_000;
/** GB (from exact bytes) in B, KB, MB or GB as lib/format's formatDataAmount says; requests as counts. */
export function formatMetric(value: number, metric: UsageMetric): string {
  return metric === "requests" ? requestsFormat.format(value) : formatDataAmount(value);
}

const compactFormat = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const gbTickFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 3 });

/** Axis ticks: "1.3M" rather than "1,300,000" so they fit on a phone; GB ticks below 1 GB in MB,
 * below 1 MB in KB. */
export function formatAxisTick(value: number, metric: UsageMetric): string {
  if (value === 0) return "0";
  if (metric === "requests") return compactFormat.format(value);
  if (value < 0.001) return `${gbTickFormat.format(value * KB_PER_GB)} KB`;
  return value < 1 ? `${gbTickFormat.format(value * MB_PER_GB)} MB` : `${gbTickFormat.format(value)} GB`;
}

const TARGET_TICK_INTERVALS = 4;
/** The smallest GB step the axis uses: 1 KB (ticks closer than that would print alike). */
const SMALLEST_GB_STEP = 1e-6;

/** A "nice" step (1, 2, 2.5 or 5 × 10^k) that covers `max` in about four intervals. */
function niceStep(max: number, smallest: number): number {
  const rough = Math.max(max / TARGET_TICK_INTERVALS, smallest);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const factor = [1, 2, 2.5, 5, 10].find((candidate) => candidate * magnitude >= rough) ?? 10;
  return factor * magnitude;
}

/**
 * Evenly spaced, distinct ticks from 0 to the first nice value at or above `max` (Recharts' own
 * ticks repeat labels once rounded: "0 GB, 0 GB, 0.1 GB, 0.1 GB"). Requests step by whole numbers.
 */
export function axisTicks(max: number, metric: UsageMetric): number[] {
  const step = niceStep(max, metric === "gb" ? SMALLEST_GB_STEP : 1);
  const intervals = Math.max(1, Math.ceil(max / step - 1e-9));
  // Rounded to the step's precision so 3 × 0.1 is 0.3, not 0.30000000000000004.
  const decimals = Math.max(0, Math.ceil(-Math.log10(step)) + 1);
  return Array.from({ length: intervals + 1 }, (_, index) => Number((index * step).toFixed(decimals)));
}

/** The value axis of the bar charts: distinct nice ticks from 0, every one shown, in the metric's units. */
export function valueAxisProps(data: readonly ChartDatum[], metric: UsageMetric) {
  const ticks = axisTicks(largestTotal(data), metric);
  return {
    type: "number" as const,
    ticks,
    domain: [0, ticks.at(-1) ?? 0] as [number, number],
    interval: 0 as const,
    tick: { fontSize: 12 },
    tickLine: false,
    tickFormatter: (value: number) => formatAxisTick(value, metric),
  };
}

/** The donut's height: the domain card beside it is never shorter, so neither card stands half empty. */
export const DONUT_CHART_HEIGHT = 260;
const DOMAIN_ROW_HEIGHT = 36;
/** Room for the value axis and the legend under the domain bars. */
const DOMAIN_CHART_CHROME = 64;

/** One row per domain, but at least as tall as the donut card's chart. */
export function domainChartHeight(rows: number): number {
  return Math.max(DONUT_CHART_HEIGHT, rows * DOMAIN_ROW_HEIGHT + DOMAIN_CHART_CHROME);
}

/** White gaps between the donut's slices, only when there are two slices to separate: a lone full
 * slice (or a zero one) stroked white draws a notch at its start angle. */
export function donutSliceStroke(datum: ChartDatum): string {
  return datum.mobile > 0 && datum.dc > 0 ? "#ffffff" : "none";
}

/** The largest stacked total among the data: where the value axis has to reach. */
export function largestTotal(data: readonly ChartDatum[]): number {
  return data.reduce((largest, datum) => Math.max(largest, datum.mobile + datum.dc), 0);
}

/** Sums in GB are re-rounded to whole bytes so 0.1 + 0.2 never shows as 0.30000000000000004. */
export function totalOf(datum: ChartDatum, metric: UsageMetric): number {
  const total = datum.mobile + datum.dc;
  return metric === "gb" ? Math.round(total * BYTES_PER_GB) / BYTES_PER_GB : total;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** "2025-03-01" → "Mar 1": the UTC day as filed, never shifted by the viewer's time zone. */
export function formatUsageDay(date: string): string {
  const [, month, day] = date.split("-").map(Number);
  return `${MONTHS[(month ?? 1) - 1]} ${day}`;
}
