import type { AdminDeal } from "@bytetoll/contracts";
import { Plus } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { formatDateTime, formatGb, formatMoney } from "../../../lib/format.ts";
import { useCancelDeal } from "../api/deal-mutations.ts";
import { useDeals } from "../api/get-deals.ts";
import { AdminCard, AdminPageHeader, AdminScreen } from "./admin-card.tsx";
import { ADMIN_TOASTER_ID } from "./admin-toaster.tsx";
import { StatusBadge } from "./badges.tsx";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import { type Column, DataTable } from "./data-table.tsx";
import { DealFormDialog } from "./deal-form-dialog.tsx";
import { errorMessage, LoadingRows, StateMessage } from "./state-message.tsx";

export const NO_DEALS = "No deals yet. Create a flash sale or a group buy.";

function Progress({ deal }: { deal: AdminDeal }) {
  const percent = Math.max(0, Math.round(deal.progress_percent));
  return (
    <div className="w-36 space-y-1">
      <div className="flex justify-between text-xs text-slate-500">
        <span>
          {deal.deal_type === "group_buy" ? formatMoney(deal.deposited_usd) : formatGb(deal.deal_reserved_gb)}{" "}
          · {deal.participants} {deal.participants === 1 ? "buyer" : "buyers"}
        </span>
        <span>{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label={`${deal.deal_title} progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(100, percent)}
        className="h-2 overflow-hidden rounded-full bg-slate-100"
      >
        <div className="h-full rounded-full bg-indigo-500" style={{ width: `${Math.min(100, percent)}%` }} />
      </div>
    </div>
  );
}

/** /admin/deals: every deal with its progress; create, edit before the start, cancel. */
export function DealsPage() {
  const deals = useDeals();
  const [editing, setEditing] = useState<AdminDeal | "new" | null>(null);
  const [cancelling, setCancelling] = useState<AdminDeal | null>(null);

  const columns: readonly Column<AdminDeal>[] = [
    {
      header: "Deal",
      wrap: true,
      cell: (deal) => (
        <div className="sm:max-w-52 sm:min-w-36">
          <p className="font-medium text-slate-900">{deal.deal_title}</p>
          <p className="text-xs text-slate-500">
            {deal.deal_type === "flash_sale" ? "Flash sale" : "Group buy"}
          </p>
        </div>
      ),
    },
    { header: "Price", numeric: true, cell: (deal) => `${formatMoney(deal.deal_price)}/GB` },
    { header: "Target", numeric: true, cell: (deal) => formatGb(deal.deal_target_gb) },
    { header: "Progress", cell: (deal) => <Progress deal={deal} /> },
    {
      header: "Runs",
      cell: (deal) => (
        // Start and end on two lines: one line of both made the table wider than a 1366 px screen.
        <span className="text-xs">
          <span className="block">{formatDateTime(deal.deal_start_time)} →</span>
          <span className="block">{formatDateTime(deal.deal_end_time)}</span>
        </span>
      ),
    },
    { header: "Status", cell: (deal) => <StatusBadge status={deal.status} /> },
    {
      header: "Actions",
      cell: (deal) => (
        <div className="flex gap-2">
          {deal.status === "pending" ? (
            <Button
              variant="secondary"
              className="px-3 py-1.5"
              aria-label={`Edit ${deal.deal_title}`}
              onClick={() => setEditing(deal)}
            >
              Edit
            </Button>
          ) : null}
          {deal.status === "pending" || deal.status === "live" ? (
            <Button
              variant="secondary"
              className="px-3 py-1.5 text-red-700"
              aria-label={`Cancel ${deal.deal_title}`}
              onClick={() => setCancelling(deal)}
            >
              Cancel
            </Button>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <AdminScreen>
      <AdminPageHeader
        title="Deals"
        description="Flash sales and group buys, newest first."
        actions={
          <Button onClick={() => setEditing("new")}>
            <Plus aria-hidden="true" className="size-4" />
            New deal
          </Button>
        }
      />
      <AdminCard title="All deals">
        {deals.isPending ? (
          <LoadingRows rows={4} label="Loading deals" />
        ) : deals.isError ? (
          <StateMessage error onRetry={() => void deals.refetch()}>
            {errorMessage(deals.error)}
          </StateMessage>
        ) : deals.data.length === 0 ? (
          <StateMessage>{NO_DEALS}</StateMessage>
        ) : (
          <DataTable caption="Deals" columns={columns} rows={deals.data} rowKey={(deal) => deal.id} />
        )}
      </AdminCard>
      {editing ? (
        <DealFormDialog deal={editing === "new" ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {cancelling ? <CancelDealDialog deal={cancelling} onClose={() => setCancelling(null)} /> : null}
    </AdminScreen>
  );
}

function CancelDealDialog({ deal, onClose }: { deal: AdminDeal; onClose: () => void }) {
  const cancel = useCancelDeal();
  const refunds =
    deal.deal_type === "group_buy" && deal.participants > 0
      ? ` The ${deal.participants} ${deal.participants === 1 ? "deposit" : "deposits"} (${formatMoney(deal.deposited_usd)}) become refunds in the payout queue.`
      : "";
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={`Cancel “${deal.deal_title}”`}
      consequence={`Ends the deal for good: customers see it as Cancelled on Promotions, and nobody can buy or deposit any more.${refunds}`}
      confirmLabel="Cancel deal"
      danger
      pending={cancel.isPending}
      error={cancel.error}
      onConfirm={() =>
        cancel.mutate(deal.id, {
          onSuccess: () => {
            toast.success(`Cancelled “${deal.deal_title}”`, { toasterId: ADMIN_TOASTER_ID });
            onClose();
          },
        })
      }
      testId="cancel-deal-dialog"
    />
  );
}
