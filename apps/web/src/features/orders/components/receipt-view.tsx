import { PLACEHOLDER_PAYIN_HASH } from "@bytetoll/contracts";
import { ArrowLeft, Printer } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button, buttonClassName } from "../../../components/ui/button.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { formatDateTime, formatGb, formatMoney, formatUsdc } from "../../../lib/format.ts";
import { useReceipt } from "../api/get-receipt.ts";
import { errorMessage, orderPath } from "../hooks/use-start-purchase.ts";
import { paymentProviderName } from "../payment-provider.ts";

export const RECEIPT_FAILED_MESSAGE = "Failed to load the receipt";

/** /orders/{orderId}/receipt (docs/product.md#order-page): a paid order's receipt, laid out to be
 * printed (the buttons stay on screen only). */
export function ReceiptView({ orderId, billedTo }: { orderId: string; billedTo: string }) {
  const receipt = useReceipt(orderId);
  if (receipt.isPending) {
    return (
      <div className="space-y-4" data-testid="receipt-loading">
        <Skeleton className="h-8 w-48" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  if (receipt.isError) {
    const notFound = receipt.error instanceof ApiError && receipt.error.status === 404;
    return (
      <section className="space-y-4 rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <h1 className="text-xl font-semibold tracking-tight text-slate-900">
          {notFound ? "Order not found" : "No receipt for this order"}
        </h1>
        <p role="alert" className="text-sm text-slate-600">
          {notFound
            ? "Check the link, or find the order in your purchase history."
            : errorMessage(receipt.error, RECEIPT_FAILED_MESSAGE)}
        </p>
        <Link to={notFound ? "/" : orderPath(orderId)} className={buttonClassName("primary")}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          {notFound ? "Go back to Dashboard" : "Back to the order"}
        </Link>
      </section>
    );
  }

  const { order, operator } = receipt.data;
  const rows: Array<[string, ReactNode]> = [
    [
      "Order",
      <span key="order" className="font-mono text-xs break-all">
        {order.order_id}
      </span>,
    ],
    ["Date paid", formatDateTime(order.paid_at ?? order.updated_at)],
    ["Ordered", formatDateTime(order.created_at)],
    ["Data", formatGb(order.gb)],
    [
      "Amount",
      order.price_amount === null || order.method === "card"
        ? formatMoney(order.amount_usd)
        : `${formatUsdc(order.price_amount)} USDC (${formatMoney(order.amount_usd)})`,
    ],
    ["Paid with", order.payment_token ?? (order.method === "card" ? "Card" : "USDC")],
    ["Payment provider", paymentProviderName(order)],
  ];
  if (order.payin_hash && order.payin_hash !== PLACEHOLDER_PAYIN_HASH) {
    rows.push([
      "Transaction hash",
      <span key="hash" className="font-mono text-xs break-all">
        {order.payin_hash}
      </span>,
    ]);
  }

  return (
    <div className="space-y-6 print:space-y-0">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to={orderPath(order.order_id)} className={buttonClassName("secondary", "py-2")}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to the order
        </Link>
        <Button onClick={() => window.print()}>
          <Printer aria-hidden="true" className="size-4" />
          Print
        </Button>
      </div>
      <article
        aria-labelledby="receipt-title"
        className="space-y-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10 print:rounded-none print:border-0 print:p-0 print:shadow-none"
        data-testid="receipt"
      >
        <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between print:flex-row">
          <div>
            <h1 id="receipt-title" className="text-2xl font-semibold tracking-tight text-slate-900">
              Receipt
            </h1>
            <p className="mt-1 text-sm text-slate-500">Billed to {billedTo}</p>
          </div>
          <address
            className="text-sm not-italic text-slate-700 sm:text-right print:text-right"
            data-testid="operator"
          >
            <strong className="block font-semibold text-slate-900">{operator.name}</strong>
            {operator.address_lines.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </address>
        </header>
        <dl className="divide-y divide-slate-200 border-y border-slate-200 text-sm">
          {rows.map(([term, value]) => (
            <div key={term} className="grid gap-1 py-3 sm:grid-cols-3 sm:gap-4 print:grid-cols-3 print:gap-4">
              <dt className="font-medium text-slate-500">{term}</dt>
              <dd
                className="text-slate-900 sm:col-span-2 print:col-span-2"
                data-testid={`receipt-${term.toLowerCase().replaceAll(" ", "-")}`}
              >
                {value}
              </dd>
            </div>
          ))}
        </dl>
        <p className="text-sm text-slate-700">
          Total paid: <strong className="text-slate-900">{formatMoney(order.amount_usd)}</strong>
        </p>
      </article>
    </div>
  );
}
