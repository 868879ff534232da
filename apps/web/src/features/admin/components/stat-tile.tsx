import type { ReactNode } from "react";

/** One figure with its name and, under it, what it means or when. */
export function StatTile({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="min-w-0 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold [overflow-wrap:anywhere] tracking-tight text-slate-900 tabular-nums">
        {value}
      </dd>
      {hint ? <dd className="mt-1 truncate text-xs text-slate-500">{hint}</dd> : null}
    </div>
  );
}

export function StatGrid({ label, children }: { label: string; children: ReactNode }) {
  return (
    <dl aria-label={label} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {children}
    </dl>
  );
}
