import { formatGb } from "../../../lib/format.ts";

/** Reserved (or deposited) GB against the target, as text and a bar. */
export function DealProgress({ reserved, target }: { reserved: number; target: number }) {
  const percent = target > 0 ? Math.min(100, Math.round((reserved / target) * 100)) : 0;
  return (
    <div className="space-y-1.5">
      <div className="flex justify-between text-xs text-slate-500">
        <span data-testid="deal-progress">
          {formatGb(reserved)} / {formatGb(target)}
        </span>
        <span>{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label="Progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-slate-100"
      >
        <div className="h-full rounded-full bg-indigo-500" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
