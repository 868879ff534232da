import { useId } from "react";
import { classNames } from "../../../lib/class-names.ts";
import { METRIC_LABELS, type UsageMetric } from "./usage-chart-data.ts";

const METRICS: UsageMetric[] = ["gb", "requests"];

/** docs/product.md#routes-and-layout's metric radio: native radios, so arrow keys and screen readers work as expected. */
export function MetricRadio({
  value,
  onChange,
}: {
  value: UsageMetric;
  onChange: (metric: UsageMetric) => void;
}) {
  const name = useId();
  return (
    <fieldset className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5 text-sm">
      <legend className="sr-only">Metric</legend>
      {METRICS.map((metric) => (
        <label
          key={metric}
          className={classNames(
            "cursor-pointer rounded-md px-3 py-1.5 font-medium transition-colors",
            "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500",
            value === metric ? "bg-slate-800 text-white" : "text-slate-600 hover:bg-slate-100",
          )}
        >
          <input
            type="radio"
            name={name}
            value={metric}
            checked={value === metric}
            onChange={() => onChange(metric)}
            className="sr-only"
          />
          {METRIC_LABELS[metric]}
        </label>
      ))}
    </fieldset>
  );
}
