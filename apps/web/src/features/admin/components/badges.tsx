import { classNames } from "../../../lib/class-names.ts";

export type Tone = "good" | "warn" | "bad" | "muted" | "info";

const toneClasses: Record<Tone, string> = {
  good: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  warn: "bg-amber-50 text-amber-800 ring-amber-600/20",
  bad: "bg-red-50 text-red-700 ring-red-600/20",
  muted: "bg-slate-100 text-slate-700 ring-slate-500/20",
  info: "bg-indigo-50 text-indigo-700 ring-indigo-600/20",
};

/** A small coloured label; the tone is also in `data-tone` for tests and styles. */
export function Badge({ tone, children }: { tone: Tone; children: React.ReactNode }) {
  return (
    <span
      data-tone={tone}
      className={classNames(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset",
        toneClasses[tone],
      )}
    >
      {children}
    </span>
  );
}

export function AccountStateBadge({ disabledAt }: { disabledAt: string | null }) {
  return disabledAt ? <Badge tone="bad">Disabled</Badge> : <Badge tone="good">Active</Badge>;
}

const STATUS_TONES: Record<string, Tone> = {
  paid: "good",
  sent: "good",
  live: "good",
  up: "good",
  activated: "info",
  waiting: "warn",
  pending: "warn",
  partially_paid: "warn",
  degraded: "warn",
  failed: "bad",
  down: "bad",
  budget_reached: "warn",
  disabled: "muted",
  refunded: "muted",
  expired: "muted",
  cancelled: "muted",
};

/** Any status word the API sends, capitalised, in the colour its meaning has. */
export function StatusBadge({ status }: { status: string }) {
  const words = status.replaceAll("_", " ");
  return (
    <Badge tone={STATUS_TONES[status] ?? "muted"}>{words.charAt(0).toUpperCase() + words.slice(1)}</Badge>
  );
}
