import type { ReactNode } from "react";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { formatGb } from "../../../lib/format.ts";
import { useAccountStatus } from "../api/get-account-status.ts";

export const BALANCE_ERROR_MESSAGE = "Could not load your balance.";

/** Data Balance card (docs/product.md#routes-and-layout); `action` is the Buy More entry and
 * `footer` the auto top-up line the page composes in. */
export function DataBalanceCard({ action, footer }: { action: ReactNode; footer?: ReactNode }) {
  const status = useAccountStatus();
  return (
    <section
      aria-labelledby="balance-title"
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="balance-title" className="text-sm font-medium text-slate-500">
            Data Balance
          </h2>
          {status.isPending ? (
            <Skeleton className="mt-2 h-9 w-32" />
          ) : status.isError ? (
            <p role="alert" className="mt-2 text-sm text-red-600">
              {BALANCE_ERROR_MESSAGE}
            </p>
          ) : (
            <p className="mt-1 text-3xl font-semibold tracking-tight text-slate-900" data-testid="balance-gb">
              {formatGb(status.data.balance_gb)}
            </p>
          )}
          <p className="mt-1 text-xs text-slate-500">Data never expires.</p>
        </div>
        <div className="shrink-0">{action}</div>
      </div>
      {footer ? <div className="border-t border-slate-100 pt-4">{footer}</div> : null}
    </section>
  );
}
