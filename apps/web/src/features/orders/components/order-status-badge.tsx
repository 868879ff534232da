import { classNames } from "../../../lib/class-names.ts";

export type Tone = "unpaid" | "paid" | "failed" | "other";

/** docs/product.md#states: waiting or missing → Unpaid, paid green, failed red, anything else capitalised. */
export function orderStatusDisplay(status: string | null | undefined): { label: string; tone: Tone } {
  if (!status || status === "waiting") return { label: "Unpaid", tone: "unpaid" };
  if (status === "paid") return { label: "Paid", tone: "paid" };
  if (status === "failed") return { label: "Failed", tone: "failed" };
  const words = status.replaceAll("_", " ");
  return { label: words.charAt(0).toUpperCase() + words.slice(1), tone: "other" };
}

const toneClasses: Record<Tone, string> = {
  unpaid: "bg-amber-50 text-amber-800 ring-amber-600/20",
  paid: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  failed: "bg-red-50 text-red-700 ring-red-600/20",
  other: "bg-slate-100 text-slate-700 ring-slate-500/20",
};

export function OrderStatusBadge({ status }: { status: string | null | undefined }) {
  return <StatusBadge {...orderStatusDisplay(status)} />;
}

/** The status pill itself, for rows that are not orders (a credit, a refund). */
export function StatusBadge({ label, tone }: { label: string; tone: Tone }) {
  return (
    <span
      data-testid="order-status"
      data-tone={tone}
      className={classNames(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset",
        toneClasses[tone],
      )}
    >
      {label}
    </span>
  );
}
