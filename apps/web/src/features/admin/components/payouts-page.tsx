import { type AdminPayout, PAYOUT_STATUSES, payoutHashProblem } from "@bytetoll/contracts";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { classNames } from "../../../lib/class-names.ts";
import { formatDateTime, formatMoney, formatUsdc, shortenWallet } from "../../../lib/format.ts";
import { usePayouts } from "../api/get-payouts.ts";
import { useSettlePayout } from "../api/payout-actions.ts";
import { DEFAULT_PER_PAGE, usePageParam } from "../hooks/use-list-params.ts";
import { AdminCard, AdminPageHeader, AdminScreen } from "./admin-card.tsx";
import { ADMIN_TOASTER_ID } from "./admin-toaster.tsx";
import { StatusBadge } from "./badges.tsx";
import { ConfirmDialog, Field } from "./confirm-dialog.tsx";
import { type Column, DataTable, tableLinkClass } from "./data-table.tsx";
import { Pagination } from "./pagination.tsx";
import { errorMessage, LoadingRows, StateMessage } from "./state-message.tsx";

export const NO_PENDING_PAYOUTS = "Nothing to pay: no pending payouts.";
export const NO_PAYOUTS = "No payouts with this status.";

type Settling = { payout: AdminPayout; outcome: "sent" | "failed" };
const TABS = ["pending", "sent", "failed", ""] as const;

/** /admin/payouts: the queue of withdrawn and refunded deposits, a server page at a time (the page
 * is in the URL; another status starts at page 1); send one (with its transaction hash) or mark it
 * failed (the customer can withdraw again). */
export function PayoutsPage() {
  const [params, setParams] = useSearchParams();
  const raw = params.get("status");
  const status = raw === null ? "pending" : (PAYOUT_STATUSES as readonly string[]).includes(raw) ? raw : "";
  const { page, pageHref } = usePageParam();
  const payouts = usePayouts({ status, page, perPage: DEFAULT_PER_PAGE });
  const data = payouts.data;
  const [settling, setSettling] = useState<Settling | null>(null);

  const columns: readonly Column<AdminPayout>[] = [
    { header: "Requested", cell: (payout) => formatDateTime(payout.created_at) },
    {
      header: "Customer",
      cell: (payout) => (
        <Link to={`/admin/customers/${payout.user_id}`} className={tableLinkClass}>
          {payout.email}
        </Link>
      ),
    },
    { header: "Kind", cell: (payout) => (payout.kind === "refund" ? "Refund" : "Withdrawal") },
    { header: "Amount", numeric: true, cell: (payout) => `${formatUsdc(payout.amount_usd)} USDC` },
    {
      header: "Wallet",
      cell: (payout) => (
        <span className="font-mono text-xs" title={payout.wallet_address}>
          {shortenWallet(payout.wallet_address)}
        </span>
      ),
    },
    {
      header: "Status",
      cell: (payout) => (
        <span className="inline-flex items-center gap-2">
          <StatusBadge status={payout.status} />
          {payout.tx_hash ? (
            <span className="font-mono text-xs" title={payout.tx_hash}>
              {shortenWallet(payout.tx_hash)}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      header: "Actions",
      cell: (payout) =>
        payout.status === "pending" ? (
          <div className="flex gap-2">
            <Button className="px-3 py-1.5" onClick={() => setSettling({ payout, outcome: "sent" })}>
              Mark sent
            </Button>
            <Button
              variant="secondary"
              className="px-3 py-1.5 text-red-700"
              onClick={() => setSettling({ payout, outcome: "failed" })}
            >
              Mark failed
            </Button>
          </div>
        ) : null,
    },
  ];

  return (
    <AdminScreen>
      <AdminPageHeader
        title="Payouts"
        description="Deposits customers withdrew or were refunded, newest first."
      />
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Show payouts</legend>
        {TABS.map((tab) => (
          <Button
            key={tab || "all"}
            variant="secondary"
            aria-pressed={status === tab}
            className={classNames(
              "px-3 py-1.5",
              status === tab && "border-indigo-500 bg-indigo-50 text-indigo-700",
            )}
            onClick={() => setParams(tab === "pending" ? {} : { status: tab || "all" })}
          >
            {tab ? tab.charAt(0).toUpperCase() + tab.slice(1) : "All"}
          </Button>
        ))}
      </fieldset>
      <AdminCard title="Queue">
        {payouts.isPending ? (
          <LoadingRows rows={4} label="Loading payouts" />
        ) : payouts.isError && !data ? (
          <StateMessage error onRetry={() => void payouts.refetch()}>
            {errorMessage(payouts.error)}
          </StateMessage>
        ) : !data || data.data.length === 0 ? (
          <StateMessage>{status === "pending" ? NO_PENDING_PAYOUTS : NO_PAYOUTS}</StateMessage>
        ) : (
          <>
            <DataTable caption="Payouts" columns={columns} rows={data.data} rowKey={(payout) => payout.id} />
            <Pagination
              label="Payout pages"
              page={page}
              perPage={data.per_page}
              total={data.total}
              pageHref={pageHref}
            />
          </>
        )}
        {payouts.isError && data ? (
          <p role="alert" className="px-4 pb-4 text-sm text-red-600 sm:px-6">
            {errorMessage(payouts.error)}
          </p>
        ) : null}
      </AdminCard>
      {settling ? <SettleDialog settling={settling} onClose={() => setSettling(null)} /> : null}
    </AdminScreen>
  );
}

function SettleDialog({ settling, onClose }: { settling: Settling; onClose: () => void }) {
  const settle = useSettlePayout();
  const [txHash, setTxHash] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const { payout, outcome } = settling;
  const amount = `${formatUsdc(payout.amount_usd)} USDC`;
  const sent = outcome === "sent";

  function confirm() {
    // The server's own rule (the hash of the wallet's chain family), checked before asking it.
    const problem = sent ? payoutHashProblem(payout.wallet_address, txHash.trim()) : null;
    if (problem) return setInvalid(problem);
    setInvalid(null);
    settle.mutate(
      { id: payout.id, outcome: sent ? { sent: txHash.trim() } : "failed" },
      {
        onSuccess: () => {
          toast.success(sent ? `Recorded ${amount} as sent` : `Recorded ${amount} as failed`, {
            toasterId: ADMIN_TOASTER_ID,
          });
          onClose();
        },
      },
    );
  }

  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={sent ? "Mark payout sent" : "Mark payout failed"}
      consequence={
        sent
          ? `Records that you sent ${amount} (${formatMoney(payout.amount_usd)}) to ${payout.wallet_address}. The customer sees it as sent with this transaction hash. Send the money first: this does not send it.`
          : `Records that ${amount} to ${payout.wallet_address} could not be sent. The deposit becomes withdrawable by the customer again.`
      }
      confirmLabel={sent ? "Mark sent" : "Mark failed"}
      danger={!sent}
      pending={settle.isPending}
      error={invalid ? new Error(invalid) : settle.error}
      onConfirm={confirm}
      testId="payout-dialog"
    >
      {sent ? (
        <Field label="Transaction hash">
          {(control) => (
            <input
              {...control}
              className={`${control.className} font-mono`}
              value={txHash}
              maxLength={200}
              onChange={(event) => {
                setTxHash(event.target.value);
                // A stale complaint goes once the field holds a hash of the right shape.
                if (invalid && !payoutHashProblem(payout.wallet_address, event.target.value.trim()))
                  setInvalid(null);
              }}
            />
          )}
        </Field>
      ) : null}
    </ConfirmDialog>
  );
}
