import { ChevronLeft, ChevronRight } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { formatDateTime, formatGb, formatMoney } from "../../../lib/format.ts";
import { useTransactions } from "../api/get-transactions.ts";
import type { Order } from "../api/order.ts";
import { orderKind } from "./order-kind.ts";
import { OrderStatusBadge } from "./order-status-badge.tsx";

export const HISTORY_ERROR_MESSAGE = "Failed to load purchases";
export const HISTORY_EMPTY_MESSAGE = "No purchases yet";

function paymentLabel(order: Order): string {
  if (order.payment_token) return order.payment_token;
  return order.method === "card" ? "Card" : "USDC";
}

/** Dashboard Transaction History (docs/product.md#routes-and-layout): 10 orders per page, newest first. */
export function TransactionHistory() {
  const [page, setPage] = useState(1);
  const history = useTransactions({ page });
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
          <div className="overflow-x-auto">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="px-4 py-3 sm:px-6">
                    Date
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Kind
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Data
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Amount
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Payment
                  </th>
                  <th scope="col" className="px-4 py-3 sm:px-6">
                    Status
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.data.map((order) => (
                  <tr key={order.order_id} data-testid="history-row">
                    <td className="px-4 py-3 whitespace-nowrap text-slate-700 sm:px-6">
                      <Link
                        to={`/checkout?order_id=${encodeURIComponent(order.order_id)}`}
                        className="rounded hover:text-indigo-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                      >
                        {formatDateTime(order.created_at)}
                      </Link>
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-slate-700">{orderKind(order)}</td>
                    <td className="px-4 py-3 whitespace-nowrap text-slate-900">{formatGb(order.gb)}</td>
                    <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                      {formatMoney(order.amount_usd)}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-slate-700">{paymentLabel(order)}</td>
                    <td className="px-4 py-3 sm:px-6">
                      <OrderStatusBadge status={order.payment_status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
