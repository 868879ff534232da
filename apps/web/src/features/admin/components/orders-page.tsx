import { type AdminOrder, adminOrder, PAYMENT_STATUSES } from "@bytetoll/contracts";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { formatDateTime, formatGb, formatMoney } from "../../../lib/format.ts";
import { ORDER_FILTERS, type OrderFilters, useOrders } from "../api/get-orders.ts";
import { useListParams } from "../hooks/use-list-params.ts";
import { AdminCard, AdminPageHeader, AdminScreen } from "./admin-card.tsx";
import { StatusBadge } from "./badges.tsx";
import { type Column, DataTable, tableLinkClass } from "./data-table.tsx";
import { Pagination } from "./pagination.tsx";
import { errorMessage, LoadingRows, StateMessage } from "./state-message.tsx";

export const NO_ORDERS_AT_ALL = "No orders yet.";
export const NO_MATCHING_ORDERS = "No order matches these filters.";

const COLUMNS: readonly Column<AdminOrder>[] = [
  {
    header: "Created",
    cell: (order) => (
      <Link to={`/admin/orders/${order.order_id}`} className={tableLinkClass}>
        {formatDateTime(order.created_at)}
      </Link>
    ),
  },
  { header: "Customer", cell: (order) => order.email },
  { header: "Data", numeric: true, cell: (order) => formatGb(order.gb) },
  { header: "Amount", numeric: true, cell: (order) => formatMoney(order.amount_usd) },
  { header: "Method", cell: (order) => (order.method === "card" ? "Card" : "Crypto") },
  { header: "Provider", cell: (order) => order.provider },
  { header: "Status", cell: (order) => <StatusBadge status={order.payment_status} /> },
];

const selectClass =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";

/** /admin/orders: every order, filtered by status, method, provider, customer and UTC days. */
export function OrdersPage() {
  const { page, perPage, filters, setFilters, pageHref } = useListParams(ORDER_FILTERS);
  const orders = useOrders({ page, perPage, ...filters });
  const data = orders.data;
  const filtered = Object.values(filters).some(Boolean);

  return (
    <AdminScreen>
      <AdminPageHeader title="Orders" description="Every customer's orders, newest first. Days are UTC." />
      <AdminCard title="Filters">
        <OrderFilterForm
          // A new URL (back/forward) starts the form from it.
          key={JSON.stringify(filters)}
          filters={filters}
          onApply={setFilters}
        />
      </AdminCard>
      <AdminCard title="Results">
        {orders.isPending ? (
          <LoadingRows rows={5} label="Loading orders" />
        ) : orders.isError && !data ? (
          <StateMessage error onRetry={() => void orders.refetch()}>
            {errorMessage(orders.error)}
          </StateMessage>
        ) : !data || data.data.length === 0 ? (
          <StateMessage>{filtered ? NO_MATCHING_ORDERS : NO_ORDERS_AT_ALL}</StateMessage>
        ) : (
          <>
            <DataTable caption="Orders" columns={COLUMNS} rows={data.data} rowKey={(row) => row.order_id} />
            <Pagination
              label="Order pages"
              page={page}
              perPage={data.per_page}
              total={data.total}
              pageHref={pageHref}
            />
          </>
        )}
        {orders.isError && data ? (
          <p role="alert" className="px-4 pb-4 text-sm text-red-600 sm:px-6">
            {errorMessage(orders.error)}
          </p>
        ) : null}
      </AdminCard>
    </AdminScreen>
  );
}

function OrderFilterForm({
  filters,
  onApply,
}: {
  filters: OrderFilters;
  onApply: (filters: OrderFilters) => void;
}) {
  const [draft, setDraft] = useState(filters);
  const set = (name: keyof OrderFilters) => (event: { target: { value: string } }) =>
    setDraft((previous) => ({ ...previous, [name]: event.target.value }));
  function submit(event: FormEvent) {
    event.preventDefault();
    onApply({ ...draft, email: draft.email.trim() });
  }
  const empty = Object.fromEntries(ORDER_FILTERS.map((name) => [name, ""])) as OrderFilters;
  return (
    <form onSubmit={submit} className="grid gap-3 p-4 sm:grid-cols-3 sm:p-6 lg:grid-cols-6">
      <label className="text-sm font-medium text-slate-700">
        Customer e-mail
        <input type="search" value={draft.email} onChange={set("email")} className={selectClass} />
      </label>
      <label className="text-sm font-medium text-slate-700">
        Status
        <select value={draft.status} onChange={set("status")} className={selectClass}>
          <option value="">Any</option>
          {PAYMENT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status.replaceAll("_", " ")}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm font-medium text-slate-700">
        Method
        <select value={draft.method} onChange={set("method")} className={selectClass}>
          <option value="">Any</option>
          <option value="crypto">Crypto</option>
          <option value="card">Card</option>
        </select>
      </label>
      <label className="text-sm font-medium text-slate-700">
        Provider
        <select value={draft.provider} onChange={set("provider")} className={selectClass}>
          <option value="">Any</option>
          {adminOrder.shape.provider.options.map((provider) => (
            <option key={provider} value={provider}>
              {provider}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm font-medium text-slate-700">
        From
        <input type="date" value={draft.from} onChange={set("from")} className={selectClass} />
      </label>
      <label className="text-sm font-medium text-slate-700">
        To
        <input type="date" value={draft.to} onChange={set("to")} className={selectClass} />
      </label>
      <div className="flex gap-2 sm:col-span-3 lg:col-span-6">
        <Button type="submit">Apply filters</Button>
        <Button
          variant="secondary"
          onClick={() => {
            setDraft(empty);
            onApply(empty);
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}
