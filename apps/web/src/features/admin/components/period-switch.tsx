import { OVERVIEW_DAYS } from "@bytetoll/contracts";
import { classNames } from "../../../lib/class-names.ts";

/** 1d / 7d / 30d / 90d as a radio group: arrow keys move between them. */
export function PeriodSwitch({ value, onChange }: { value: number; onChange: (days: number) => void }) {
  return (
    <fieldset className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5 text-sm">
      <legend className="sr-only">Period</legend>
      {OVERVIEW_DAYS.map((days) => (
        <label
          key={days}
          className={classNames(
            "cursor-pointer rounded-md px-3 py-1 font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500",
            value === days ? "bg-indigo-600 text-white" : "text-slate-600 hover:bg-slate-100",
          )}
        >
          <input
            type="radio"
            name="overview-period"
            value={days}
            checked={value === days}
            onChange={() => onChange(days)}
            className="sr-only"
          />
          {days}d
        </label>
      ))}
    </fieldset>
  );
}
