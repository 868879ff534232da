import { lazy, Suspense } from "react";
import type { BarSeries } from "./charts/bar-chart.tsx";

// Recharts lives only in this lazily loaded chunk, fetched when a chart has something to draw.
const AdminBarChart = lazy(() => import("./charts/bar-chart.tsx"));

const DAY_LABEL = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** "Feb 28" for a UTC day "2025-02-28". */
export function dayLabel(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : DAY_LABEL.format(date);
}

/**
 * A chart of values per UTC day, and the same numbers as a table for screen readers (the chart
 * is a picture). `rows` carry `day` and one number per series key.
 */
export function DayChart({
  caption,
  rows,
  series,
  format,
}: {
  caption: string;
  rows: ReadonlyArray<{ day: string } & Record<string, string | number>>;
  series: readonly BarSeries[];
  format: (value: number) => string;
}) {
  const data: Array<Record<string, string | number> & { day: string; label: string }> = rows.map((row) => ({
    ...row,
    label: dayLabel(row.day),
  }));
  return (
    <div className="p-4 sm:p-6">
      <Suspense fallback={<div className="h-60" role="status" aria-label="Loading chart" />}>
        <AdminBarChart data={data} series={series} format={format} />
      </Suspense>
      <table className="sr-only">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            {series.map((item) => (
              <th key={item.key} scope="col">
                {item.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.map((row) => (
            <tr key={row.day}>
              <th scope="row">{row.label}</th>
              {series.map((item) => (
                <td key={item.key}>{format(Number(row[item.key] ?? 0))}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
