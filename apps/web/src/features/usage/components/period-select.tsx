import { USAGE_PERIODS, type UsagePeriod } from "@bytetoll/contracts";
import { useId } from "react";

/** docs/product.md#routes-and-layout's period selector: 1d, 7d, 14d, 30d, 90d. */
export function PeriodSelect({
  value,
  onChange,
  label = "Period",
  showLabel = false,
}: {
  value: UsagePeriod;
  onChange: (period: UsagePeriod) => void;
  label?: string;
  /** Cards say what the select is by their title; elsewhere the label is shown. */
  showLabel?: boolean;
}) {
  const id = useId();
  return (
    <div className="inline-flex items-center gap-2 text-sm">
      <label htmlFor={id} className={showLabel ? "text-slate-600" : "sr-only"}>
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(Number(event.target.value) as UsagePeriod)}
        className="rounded-lg border border-slate-300 bg-white py-1.5 pr-8 pl-3 font-medium text-slate-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      >
        {USAGE_PERIODS.map((period) => (
          <option key={period} value={period}>
            {period}d
          </option>
        ))}
      </select>
    </div>
  );
}
