import {
  type AdminOrderDetail,
  type AdminOrderEvent,
  adminOrderProviderEventDetail,
} from "@bytetoll/contracts";
import { ArrowLeft } from "lucide-react";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { ScrollRegion } from "../../../components/ui/scroll-region.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { formatDateTime, formatGb, formatMoney } from "../../../lib/format.ts";
import { useOrder } from "../api/get-order.ts";
import { type OrderAction, useOrderAction } from "../api/order-actions.ts";
import { AdminCard, AdminPageHeader, AdminScreen } from "./admin-card.tsx";
import { ADMIN_TOASTER_ID } from "./admin-toaster.tsx";
import { Badge, StatusBadge, type Tone } from "./badges.tsx";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import { tableLinkClass } from "./data-table.tsx";
import { errorMessage, StateMessage } from "./state-message.tsx";

export const NO_EVENTS = "Nothing has happened to this order yet.";

/** /admin/orders/:id: an order, what its provider and operators did to it, and the two actions. */
export function OrderPage() {
  const { id = "" } = useParams();
  const query = useOrder(id);
  const order = query.data;
  const back = (
    <Link to="/admin/orders" className={`${tableLinkClass} inline-flex items-center gap-1 text-sm`}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Orders
    </Link>
  );
  if (query.isPending)
    return (
      <AdminScreen>
        {back}
        <div role="status" aria-label="Loading order" className="space-y-4">
          <Skeleton className="h-8 w-72" />
          <Skeleton className="h-40 w-full" />
        </div>
      </AdminScreen>
    );
  if (!order)
    return (
      <AdminScreen>
        {back}
        <AdminPageHeader title="Order" />
        <StateMessage error onRetry={() => void query.refetch()}>
          {errorMessage(query.error)}
        </StateMessage>
      </AdminScreen>
    );

  return (
    <AdminScreen>
      {back}
      <AdminPageHeader
        title={
          <span className="inline-flex flex-wrap items-center gap-3">
            {formatGb(order.gb)} for {formatMoney(order.amount_usd)}
            <StatusBadge status={order.payment_status} />
          </span>
        }
        description={<span className="font-mono text-xs">{order.order_id}</span>}
        actions={<OrderActions order={order} />}
      />
      <AdminCard title="Details">
        <dl className="grid gap-x-6 gap-y-3 p-4 text-sm sm:grid-cols-2 sm:p-6 lg:grid-cols-3">
          <Detail label="Customer">
            <Link to={`/admin/customers/${order.user_id}`} className={tableLinkClass}>
              {order.email}
            </Link>
          </Detail>
          <Detail label="Created">{formatDateTime(order.created_at)}</Detail>
          <Detail label="Paid">{order.paid_at ? formatDateTime(order.paid_at) : "—"}</Detail>
          <Detail label="Expires">{formatDateTime(order.expires_at)}</Detail>
          <Detail label="Method">
            {order.method === "card" ? "Card" : `Crypto (${order.network_type ?? "—"})`}
          </Detail>
          <Detail label="Provider">
            {order.provider}
            {order.provider_payment_id ? (
              <span className="ml-2 font-mono text-xs text-slate-500">{order.provider_payment_id}</span>
            ) : null}
          </Detail>
          <Detail label="Credited">{formatGb(order.credited_gb)}</Detail>
          <Detail label="Reversed">{formatGb(order.reversed_gb)}</Detail>
          {order.note ? <Detail label="Note">{order.note}</Detail> : null}
        </dl>
      </AdminCard>
      <AdminCard title="Events">
        {order.events.length === 0 ? (
          <StateMessage>{NO_EVENTS}</StateMessage>
        ) : (
          <ol aria-label="Order events" className="divide-y divide-slate-100">
            {order.events.map((event, index) => (
              // Events have no id of their own; their order is fixed (oldest first).
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <li key={index} className="px-4 py-3 text-sm sm:px-6">
                <EventLine event={event} />
                {event.detail ? (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-xs text-slate-500">Stored record</summary>
                    <ScrollRegion
                      label="Stored record"
                      className="mt-1 rounded-lg bg-slate-50 p-2 text-xs text-slate-700"
                    >
                      <pre>{JSON.stringify(event.detail, null, 2)}</pre>
                    </ScrollRegion>
                  </details>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </AdminCard>
    </AdminScreen>
  );
}

const OUTCOME_TONES: Record<string, Tone> = {
  credited: "good",
  partially_paid: "warn",
  held_by_deal: "info",
  refunded: "bad",
  charged_back: "bad",
  rejected: "bad",
  failed: "bad",
};

/** One event: when, what kind, and its line; a provider's callback shows its provider and type,
 * what it did to the order, and the amount it was about. */
function EventLine({ event }: { event: AdminOrderEvent }) {
  const provider =
    event.kind === "provider_event" ? adminOrderProviderEventDetail.safeParse(event.detail).data : undefined;
  const time = <span className="text-slate-500 tabular-nums">{formatDateTime(event.at)}</span>;
  const chip = (text: string) => (
    <span className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">{text}</span>
  );
  if (!provider)
    return (
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {time}
        {chip(event.kind)}
        <span className="text-slate-900">{event.summary}</span>
      </div>
    );
  const unit = provider.currency ? ` ${provider.currency.toUpperCase()}` : "";
  const amount =
    typeof provider.amount === "number"
      ? provider.of == null
        ? `${provider.amount}${unit}`
        : `${provider.amount} of ${provider.of}${unit}`
      : null;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1" data-testid="provider-event">
      {time}
      {chip(provider.provider)}
      <span className="font-mono text-xs break-all text-slate-900">{provider.event_type}</span>
      <Badge tone={OUTCOME_TONES[provider.outcome] ?? "muted"}>{provider.outcome.replaceAll("_", " ")}</Badge>
      {amount ? <span className="text-slate-900 tabular-nums">{amount}</span> : null}
    </div>
  );
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-900">{children}</dd>
    </div>
  );
}

const ORDER_ACTION_WORDS: Record<
  OrderAction,
  { title: string; confirm: string; consequence: (order: AdminOrderDetail) => string }
> = {
  "mark-paid": {
    title: "Mark sandbox order paid",
    confirm: "Mark paid",
    consequence: (order) =>
      `Records this sandbox order as paid: ${order.email} is credited ${formatGb(order.gb)} at once, as a real payment would. No money moves.`,
  },
  expire: {
    title: "Expire order",
    confirm: "Expire",
    consequence: (order) =>
      `Closes this waiting order: a payment arriving for it later credits nothing, and ${order.email} has to start a new order to buy.`,
  },
};

function OrderActions({ order }: { order: AdminOrderDetail }) {
  const mutation = useOrderAction(order.order_id);
  const [open, setOpen] = useState<OrderAction | null>(null);
  const waiting = order.payment_status === "waiting";
  const words = open ? ORDER_ACTION_WORDS[open] : null;
  return (
    <>
      {waiting && order.provider === "sandbox" ? (
        <Button variant="secondary" onClick={() => setOpen("mark-paid")}>
          Mark paid
        </Button>
      ) : null}
      {waiting ? (
        <Button variant="secondary" className="text-red-700" onClick={() => setOpen("expire")}>
          Expire
        </Button>
      ) : null}
      {open && words ? (
        <ConfirmDialog
          open
          onOpenChange={(next) => {
            if (!next) {
              setOpen(null);
              mutation.reset();
            }
          }}
          title={words.title}
          consequence={words.consequence(order)}
          confirmLabel={words.confirm}
          danger={open === "expire"}
          pending={mutation.isPending}
          error={mutation.error}
          onConfirm={() =>
            mutation.mutate(open, {
              onSuccess: (answer) => {
                toast.success(answer.message, { toasterId: ADMIN_TOASTER_ID });
                setOpen(null);
              },
            })
          }
          testId={`${open}-dialog`}
        />
      ) : null}
    </>
  );
}
