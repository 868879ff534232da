import {
  SUBUSER_LIMIT_GB_MAX,
  SUBUSER_LIMIT_GB_MIN,
  SUBUSER_LIMIT_PERIODS,
  type SubuserLimitPeriod,
} from "@bytetoll/contracts";
import { PERIOD_LABELS } from "../../../lib/subuser-periods.ts";

export const FIELD = "mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm";

/** A limit is typed in MB or GB (1 GB = 1,000 MB), as the page shows it. */
export type LimitUnit = "MB" | "GB";
const GB_PER_UNIT: Record<LimitUnit, number> = { MB: 0.001, GB: 1 };

export interface LimitDraft {
  amount: string;
  unit: LimitUnit;
  period: SubuserLimitPeriod;
}

export const NO_LIMIT: LimitDraft = { amount: "", unit: "GB", period: "total" };

/** The draft of an existing limit, in the unit it is shown in (MB below 1 GB). */
export function draftOf(limitBytes: number | null, period: SubuserLimitPeriod): LimitDraft {
  if (limitBytes === null) return { ...NO_LIMIT, period };
  const unit: LimitUnit = limitBytes < 1e9 ? "MB" : "GB";
  return { amount: String(limitBytes / 1e9 / GB_PER_UNIT[unit]), unit, period };
}

/** limit_gb for the API: null when the amount is empty (no limit). The server judges the range. */
export function limitGbOf(draft: LimitDraft): number | null {
  if (draft.amount.trim() === "") return null;
  // Rounded to whole bytes so 0.1 × 0.001 does not send 0.00010000000000000002.
  return Math.round(Number(draft.amount) * GB_PER_UNIT[draft.unit] * 1e9) / 1e9;
}

/** What is wrong with the typed limit, in the page's words; null when it can be sent. */
export function limitProblem(draft: LimitDraft): string | null {
  const gb = limitGbOf(draft);
  if (gb === null) return null;
  if (!Number.isFinite(gb) || gb < SUBUSER_LIMIT_GB_MIN) return "A limit must be at least 1 MB.";
  if (gb > SUBUSER_LIMIT_GB_MAX) return "A limit can be at most 1,000,000 GB.";
  return null;
}

/** Limit, its unit and its period, side by side. */
export function SubuserLimitFields({
  draft,
  onChange,
}: {
  draft: LimitDraft;
  onChange: (draft: LimitDraft) => void;
}) {
  return (
    <div className="grid grid-cols-[1fr_auto_1fr] gap-3">
      <label className="block text-sm font-medium text-slate-700">
        Limit
        <input
          className={FIELD}
          type="number"
          step="any"
          inputMode="decimal"
          placeholder="No limit"
          value={draft.amount}
          onChange={(event) => onChange({ ...draft, amount: event.target.value })}
        />
      </label>
      <label className="block text-sm font-medium text-slate-700">
        Unit
        <select
          className={FIELD}
          value={draft.unit}
          onChange={(event) => onChange({ ...draft, unit: event.target.value as LimitUnit })}
        >
          <option value="MB">MB</option>
          <option value="GB">GB</option>
        </select>
      </label>
      <label className="block text-sm font-medium text-slate-700">
        Period
        <select
          className={FIELD}
          value={draft.period}
          onChange={(event) => onChange({ ...draft, period: event.target.value as SubuserLimitPeriod })}
        >
          {SUBUSER_LIMIT_PERIODS.map((value) => (
            <option key={value} value={value}>
              {PERIOD_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
