import { type HistoryEntry, type LedgerHistoryEntry, SOLD_OUT_LIST_PRICE_NOTE } from "@bytetoll/contracts";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { formatDateTime, formatGb, formatMoney } from "../../../lib/format.ts";
import { useHistory } from "../api/get-history.ts";
import { usePayouts } from "../api/get-payouts.ts";
import type { Order } from "../api/order.ts";
import { useLiveHistory } from "../hooks/use-live-history.ts";
import { orderPath } from "../hooks/use-start-purchase.ts";
import { depositState, ledgerNoteText } from "./deposit-state.ts";
import { orderKind, soldOutAtListPrice } from "./order-kind.ts";
import { OrderStatusBadge, StatusBadge } from "./order-status-badge.tsx";

export const HISTORY_ERROR_MESSAGE = "Failed to load purchases";
export const HISTORY_EMPTY_MESSAGE = "No purchases yet";

/** What each balance change that is not an order is called in the Kind column. */
export const LEDGER_KIND_LABELS: Record<LedgerHistoryEntry["kind"], string> = {
  bonus: "Free data",
  adjustment: "Adjustment",
  deposit: "Group buy credit",
  refund: "Refund",
  chargeback: "Chargeback",
};

function paymentLabel(order: Order): string {
  if (order.payment_token) return order.payment_token;
  return order.method === "card" ? "Card" : "USDC";
}

/** "+1 GB" / "−0.5 GB": a change of the balance says which way it went. */
function signedGb(gb: number): string {
  return gb < 0 ? `−${formatGb(-gb)}` : `+${formatGb(gb)}`;
}

const COLUMNS = ["Date", "Kind", "Data", "Amount", "Payment", "Status"] as const;

// Below 640 px each row is a card: the header row is hidden and each cell names its column.
const cell =
  "px-4 py-3 sm:whitespace-nowrap max-sm:p-0 max-sm:before:block max-sm:before:text-xs max-sm:before:font-medium max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)]";
const linkClass =
  "inline-flex items-center gap-1 rounded font-medium text-indigo-600 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";

function OrderLink({ orderId, children }: { orderId: string; children: ReactNode }) {
  return (
    <Link to={orderPath(orderId)} className={linkClass}>
      {children}
      <ChevronRight aria-hidden="true" className="size-3.5" />
    </Link>
  );
}

function Row({ entry, deposit }: { entry: HistoryEntry; deposit: "Withdrawn" | "Credited" | null }) {
  const date = formatDateTime(entry.created_at);
  const cells: Record<(typeof COLUMNS)[number], ReactNode> =
    entry.kind === "order"
      ? {
          Date: <OrderLink orderId={entry.order.order_id}>{date}</OrderLink>,
          Kind: orderKind(entry.order),
          Data: soldOutAtListPrice(entry.order) ? (
            <>
              {formatGb(entry.order.gb)}
              <span className="block text-xs text-amber-700">{SOLD_OUT_LIST_PRICE_NOTE}</span>
            </>
          ) : (
            formatGb(entry.order.gb)
          ),
          Amount: formatMoney(entry.order.amount_usd),
          Payment: paymentLabel(entry.order),
          Status: deposit ? (
            <StatusBadge label={deposit} tone={deposit === "Credited" ? "paid" : "other"} />
          ) : (
            <OrderStatusBadge status={entry.order.payment_status} />
          ),
        }
      : {
          Date: entry.order_id ? <OrderLink orderId={entry.order_id}>{date}</OrderLink> : date,
          Kind: LEDGER_KIND_LABELS[entry.kind],
          Data: signedGb(entry.gb),
          Amount: "—",
          Payment: ledgerNoteText(entry.note) ?? "—",
          Status:
            entry.gb < 0 ? (
              <StatusBadge label="Taken back" tone="failed" />
            ) : (
              <StatusBadge label="Credited" tone="paid" />
            ),
        };
  return (
    <tr
      data-testid="history-row"
      data-kind={entry.kind}
      className="max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-2 max-sm:px-4 max-sm:py-3"
    >
      {COLUMNS.map((column) => (
        <td
          key={column}
          // Date and Status head the card without a label; the others name their column.
          data-label={column === "Date" || column === "Status" ? undefined : column}
          className={
            column === "Date"
              ? `${cell} text-slate-700 sm:pl-6`
              : column === "Status"
                ? `${cell} max-sm:row-start-1 max-sm:col-start-2 max-sm:justify-self-end sm:pr-6`
                : column === "Payment"
                  ? `${cell} break-words text-slate-700`
                  : `${cell} ${column === "Data" ? "text-slate-900" : "text-slate-700"}`
          }
        >
          {cells[column]}
        </td>
      ))}
    </tr>
  );
}

/** Dashboard Transaction History (docs/product.md#transaction-history): orders and the balance
 * changes that are not orders, 10 per page, newest first; a stacked list on a phone. Kept live by
 * the signed-in user's balance changes (`userId`; null: not known yet). */
export function TransactionHistory({ userId }: { userId: string | null }) {
  const [page, setPage] = useState(1);
  const history = useHistory(page);
  const payouts = usePayouts();
  useLiveHistory(userId);
  const data = history.data;

  return (
    <section
      aria-labelledby="history-title"
      className="rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="border-b border-slate-200 px-4 py-4 sm:px-6">
        <h2 id="history-title" className="text-base font-semibold text-slate-900">
          Transaction History
        </h2>
      </div>
      {history.isPending ? (
        <div className="space-y-3 p-6" data-testid="history-loading">
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-5 w-2/3" />
        </div>
      ) : history.isError && !data ? (
        <p role="alert" className="px-6 py-8 text-center text-sm text-red-600">
          {HISTORY_ERROR_MESSAGE}
        </p>
      ) : !data || data.data.length === 0 ? (
        <p className="px-6 py-8 text-center text-sm text-slate-500">{HISTORY_EMPTY_MESSAGE}</p>
      ) : (
        <>
          <table className="w-full text-left text-sm max-sm:block" data-testid="history-table">
            <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase max-sm:sr-only">
              <tr>
                {COLUMNS.map((column) => (
                  <th
                    key={column}
                    scope="col"
                    className={`px-4 py-3 ${column === "Date" ? "sm:pl-6" : ""} ${column === "Status" ? "sm:pr-6" : ""}`}
                  >
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 border-t border-slate-200 max-sm:block max-sm:border-t-0">
              {data.data.map((entry) => (
                <Row
                  key={entry.id}
                  entry={entry}
                  deposit={
                    entry.kind === "order" ? depositState(entry.order, data.data, payouts.data ?? []) : null
                  }
                />
              ))}
            </tbody>
          </table>
          <nav
            aria-label="Transaction history pages"
            className="flex items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 text-sm sm:px-6"
          >
            <p className="text-slate-500" data-testid="history-range">
              {data.from ?? 0}–{data.to ?? 0} of {data.total}
            </p>
            <div className="flex gap-2">
              <Button
                variant="secondary"
                className="px-3 py-1.5"
                disabled={data.current_page <= 1 || history.isPlaceholderData}
                onClick={() => setPage(data.current_page - 1)}
              >
                <ChevronLeft aria-hidden="true" className="size-4" />
                Previous
              </Button>
              <Button
                variant="secondary"
                className="px-3 py-1.5"
                disabled={data.current_page >= data.last_page || history.isPlaceholderData}
                onClick={() => setPage(data.current_page + 1)}
              >
                Next
                <ChevronRight aria-hidden="true" className="size-4" />
              </Button>
            </div>
          </nav>
        </>
      )}
    </section>
  );
}
