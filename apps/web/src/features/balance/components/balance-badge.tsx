import { Database } from "lucide-react";
import { Link } from "react-router";
import { formatGb } from "../../../lib/format.ts";
import { useLiveBalance } from "../hooks/use-live-balance.ts";

/** The top bar's compact balance on every signed-in page, live; it links to Buy Data. */
export function BalanceBadge({ userId }: { userId: string }) {
  const status = useLiveBalance(userId);
  const empty = status.data !== undefined && status.data.balance_gb <= 0;
  const figure = status.data ? formatGb(status.data.balance_gb) : "…";
  return (
    <Link
      to="/"
      aria-label={status.data ? `Balance ${figure}, buy data` : "Balance, buy data"}
      title="Buy Data"
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full border px-2.5 py-1 sm:px-3 text-sm font-medium whitespace-nowrap tabular-nums focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${
        empty
          ? "border-amber-300 bg-amber-50 text-amber-800 hover:bg-amber-100"
          : "border-slate-200 bg-white text-slate-700 hover:bg-slate-50"
      }`}
      data-testid="balance-badge"
    >
      <Database aria-hidden="true" className="hidden size-4 sm:block" />
      <span data-testid="balance-badge-gb">{figure}</span>
    </Link>
  );
}
