import { CreditCard, ExternalLink, Loader2, Printer, RefreshCw } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { Button, buttonClassName } from "../../../components/ui/button.tsx";
import { CopyButton } from "../../../components/ui/copy-button.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { formatDateTime, formatGb, formatMoney, formatUsdc } from "../../../lib/format.ts";
import { useRealtimeConnection } from "../../../lib/realtime/use-realtime-connection.ts";
import { useTransaction } from "../api/get-transaction.ts";
import type { Order } from "../api/order.ts";
import { useLiveOrderUpdates } from "../hooks/use-live-order-updates.ts";
import { useRefreshOrder } from "../hooks/use-refresh-order.ts";
import { errorMessage, goToCardPage } from "../hooks/use-start-purchase.ts";
import { paymentProviderName } from "../payment-provider.ts";
import { receiptPath } from "../receipt-path.ts";
import { CancelOrderDialog } from "./cancel-order-dialog.tsx";
import { CryptoCheckoutForm } from "./crypto-checkout-form.tsx";
import { NETWORK_NAMES } from "./crypto-network-fields.tsx";
import { LiveStatusIndicator } from "./live-status-indicator.tsx";
import { orderKind, soldOutAtListPrice } from "./order-kind.ts";
import { OrderStatusBadge } from "./order-status-badge.tsx";
import { OrderUnavailable } from "./order-unavailable.tsx";
import { PaymentDeadline } from "./payment-deadline.tsx";
import { SimulatePayment } from "./simulate-payment.tsx";

/** /checkout?order_id=… (docs/product.md#routes-and-layout): the order's payment state, live and refreshable by hand.
 * `dealNotice` shows, on an unpaid order made for a deal, whether that deal is still on. */
export function OrderStatusView({
  orderId,
  userId,
  dealNotice,
}: {
  orderId: string;
  userId: string;
  dealNotice?: (dealId: string) => ReactNode;
}) {
  const order = useTransaction(orderId);
  const connection = useRealtimeConnection();
  useLiveOrderUpdates(userId);
  const refresher = useRefreshOrder(orderId);

  if (order.isPending) {
    return (
      <div className="space-y-4" data-testid="order-loading">
        <Skeleton className="h-8 w-48" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (order.isError) {
    return <OrderUnavailable error={order.error} />;
  }

  const data = order.data;
  const notice = data.deal_id && data.payment_status === "waiting" ? dealNotice?.(data.deal_id) : null;
  if (isUnpriced(data)) {
    // Made at sign-in from a usd link: the customer picks the network (or card) here first.
    return (
      <div className="space-y-4">
        {notice}
        <CryptoCheckoutForm
          fixedUsd={data.amount_usd}
          dealId={null}
          orderId={data.order_id}
          orderGb={data.gb}
        />
      </div>
    );
  }
  return (
    <div className="space-y-6" data-testid="order-status-view">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h1 className="flex items-center gap-3 text-2xl font-semibold tracking-tight text-slate-900">
            Order
            <OrderStatusBadge status={data.payment_status} />
          </h1>
          <p className="font-mono text-xs break-all text-slate-500">{data.order_id}</p>
          <LiveStatusIndicator state={connection} />
        </div>
        <Button variant="secondary" onClick={() => void refresher.refresh()} disabled={refresher.checking}>
          <RefreshCw aria-hidden="true" className={refresher.checking ? "size-4 animate-spin" : "size-4"} />
          {refresher.checking ? "Checking..." : "Refresh"}
        </Button>
      </div>
      {notice}
      {refresher.error ? (
        <p role="alert" className="text-sm text-red-600">
          {refresher.error}
        </p>
      ) : null}

      {data.payment_status === "waiting" ? <WaitingForPayment order={data} /> : null}
      {data.payment_status === "partially_paid" ? <PartiallyPaid order={data} /> : null}
      {data.payment_status === "paid" ? (
        <div className="flex flex-col gap-3 rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-800 sm:flex-row sm:items-center sm:justify-between">
          <p>
            {orderKind(data) === "Deposit"
              ? `Deposit received. It is held until the group buy reaches its target, then buys ${formatGb(data.gb)}.`
              : `Payment received. ${formatGb(data.gb)} added to your balance.`}
            {soldOutAtListPrice(data) ? (
              <span className="mt-1 block text-amber-800" data-testid="sold-out-note">
                {soldOutAtListPrice(data)} Its stock went to other buyers after this order ended unpaid.
              </span>
            ) : null}
          </p>
          <Link to={receiptPath(data.order_id)} className={buttonClassName("secondary", "shrink-0 py-2")}>
            <Printer aria-hidden="true" className="size-4" />
            Receipt
          </Link>
        </div>
      ) : null}
      {data.payment_status === "cancelled" ? (
        <p
          className="rounded-xl border border-slate-200 bg-slate-100 px-4 py-3 text-sm text-slate-700"
          data-testid="order-cancelled"
        >
          You cancelled this order. Do not send a payment for it; one already on its way is still credited.
        </p>
      ) : null}

      <OrderDetails order={data} />
    </div>
  );
}

/** An order created at sign-in whose payment method has not been chosen yet (decision 003). */
export function isUnpriced(order: Order): boolean {
  return (
    order.payment_status === "waiting" &&
    order.method === "crypto" &&
    order.network_type === null &&
    order.pay_address === null
  );
}

function WaitingForPayment({ order }: { order: Order }) {
  return (
    <section
      aria-label="Payment instructions"
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      {order.method === "card" ? (
        <ContinueWithCard orderId={order.order_id} />
      ) : order.pay_address ? (
        <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
          {order.qr_code ? (
            <img
              src={order.qr_code}
              alt="QR code of the pay address"
              // One pixel per module: scaled up without smoothing so the modules stay sharp.
              className="size-44 shrink-0 self-center rounded-lg border border-slate-200 bg-white [image-rendering:pixelated] sm:self-start"
            />
          ) : null}
          <div className="min-w-0 space-y-3 text-sm">
            <p className="text-slate-700">
              Send exactly{" "}
              <strong className="text-slate-900">
                {order.price_amount === null ? "—" : `${formatUsdc(order.price_amount)} USDC`}
              </strong>
              {order.network_type ? ` on ${NETWORK_NAMES[order.network_type]}` : ""} to this address:
            </p>
            <div className="flex flex-wrap items-center gap-2">
              <code
                className="rounded-md bg-slate-100 px-2 py-1.5 font-mono text-xs break-all text-slate-900"
                data-testid="pay-address"
              >
                {order.pay_address}
              </code>
              <CopyButton value={order.pay_address} label="Copy pay address" />
            </div>
            <p className="text-xs text-amber-800">Only send USDC on this network, or the funds are lost.</p>
          </div>
        </div>
      ) : null}
      <p className="flex items-center gap-2 text-sm text-slate-600" aria-live="polite">
        <Loader2 aria-hidden="true" className="size-4 animate-spin text-indigo-600" />
        Waiting for payment… This page updates by itself when it arrives.
      </p>
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-4">
        <PaymentDeadline order={order} />
        <CancelOrderDialog orderId={order.order_id} />
      </div>
      <SimulatePayment order={order} />
      <PoweredBy order={order} />
    </section>
  );
}

/** "Powered by NOWPayments.": the provider the order's payment was opened with. */
function PoweredBy({ order }: { order: Order }) {
  return (
    <p className="text-xs text-slate-500" data-testid="powered-by">
      Powered by {paymentProviderName(order)}.
    </p>
  );
}

/** Part of the payment arrived: nothing is credited until all of it has (decision 010). The
 * order's note says how much arrived. */
function PartiallyPaid({ order }: { order: Order }) {
  const network = order.network_type ? ` on ${NETWORK_NAMES[order.network_type]}` : "";
  return (
    <section
      aria-label="Partial payment"
      className="space-y-3 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <p data-testid="partial-payment">
        {order.note ?? "Part of your payment has arrived."} The {formatGb(order.gb)} of this order are added
        to your balance once the full amount has arrived.
      </p>
      {order.method === "crypto" && order.pay_address ? (
        <div className="space-y-2">
          <p>Send the rest in USDC{network} to the same address:</p>
          <div className="flex flex-wrap items-center gap-2">
            <code className="rounded-md bg-white px-2 py-1.5 font-mono text-xs break-all text-slate-900">
              {order.pay_address}
            </code>
            <CopyButton value={order.pay_address} label="Copy pay address" />
          </div>
        </div>
      ) : null}
      <p>If you cannot send the rest, contact Support and we will help.</p>
    </section>
  );
}

function ContinueWithCard({ orderId }: { orderId: string }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function go() {
    setPending(true);
    setError(null);
    try {
      await goToCardPage(orderId);
    } catch (failure) {
      setError(errorMessage(failure, "Something went wrong. Please try again."));
      setPending(false);
    }
  }
  return (
    <div className="space-y-2">
      <Button onClick={() => void go()} disabled={pending}>
        <CreditCard aria-hidden="true" className="size-4" />
        Pay by card
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function OrderDetails({ order }: { order: Order }) {
  const rows: Array<[string, React.ReactNode]> = [
    [
      "Amount",
      order.price_amount === null ? formatMoney(order.amount_usd) : `${formatUsdc(order.price_amount)} USDC`,
    ],
    ["Payment token", order.payment_token ?? "—"],
    ["Data", formatGb(order.gb)],
    ["Balance after", order.balance_gb_after === null ? "—" : formatGb(order.balance_gb_after)],
    ["Created", formatDateTime(order.created_at)],
  ];
  return (
    <section
      aria-label="Order details"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <dl className="grid gap-4 text-sm sm:grid-cols-2">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt className="font-medium text-slate-500">{term}</dt>
            <dd
              className="mt-1 text-slate-900"
              data-testid={`order-${term.toLowerCase().replaceAll(" ", "-")}`}
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {order.transaction_url ? (
        <a
          href={order.transaction_url}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-4 inline-flex items-center gap-1.5 text-sm font-medium text-indigo-600 hover:text-indigo-500"
        >
          View transaction
          <ExternalLink aria-hidden="true" className="size-4" />
        </a>
      ) : null}
    </section>
  );
}
