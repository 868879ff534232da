import type { TooltipContentProps } from "recharts";
import { formatMetric, type UsageMetric } from "../usage-chart-data.ts";

/** Tooltip of every usage chart: the label, then Mobile and DC in the chosen metric's units. */
export function UsageTooltip({
  active,
  payload,
  label,
  metric,
}: Partial<TooltipContentProps<number, string>> & { metric: UsageMetric }) {
  if (!active || !payload?.length) return null;
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-xs shadow-md">
      {label !== undefined && label !== "" ? (
        <p className="mb-1 font-semibold text-slate-900">{label}</p>
      ) : null}
      {payload.map((entry) => (
        <p key={String(entry.name)} className="flex items-center gap-2 text-slate-700">
          <span
            aria-hidden="true"
            className="size-2 rounded-sm"
            style={{ background: entry.color ?? entry.payload?.fill }}
          />
          {entry.name}: {formatMetric(Number(entry.value ?? 0), metric)}
        </p>
      ))}
    </div>
  );
}
