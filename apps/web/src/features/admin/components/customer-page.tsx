import type { AdminLedgerEntry, AdminOrder } from "@bytetoll/contracts";
import { ArrowLeft } from "lucide-react";
import { Link, useParams } from "react-router";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { formatDataAmount, formatDateTime, formatGb, formatMoney } from "../../../lib/format.ts";
import { useCustomer } from "../api/get-customer.ts";
import { usePageParam } from "../hooks/use-list-params.ts";
import { AdminCard, AdminPageHeader, AdminScreen } from "./admin-card.tsx";
import { AccountStateBadge, StatusBadge } from "./badges.tsx";
import { CustomerActions } from "./customer-actions.tsx";
import { CustomerSubusersCard } from "./customer-subusers-card.tsx";
import { type Column, DataTable, tableLinkClass } from "./data-table.tsx";
import { DayChart } from "./day-chart.tsx";
import { formatBytes } from "./network-figures.ts";
import { Pagination } from "./pagination.tsx";
import { StatGrid, StatTile } from "./stat-tile.tsx";
import { errorMessage, StateMessage } from "./state-message.tsx";

export const NO_LEDGER = "No balance changes yet.";
export const NO_ORDERS = "No orders yet.";
export const NO_USAGE = "No traffic in the last 30 days.";

const LEDGER_COLUMNS: readonly Column<AdminLedgerEntry>[] = [
  { header: "When", cell: (entry) => formatDateTime(entry.created_at) },
  { header: "Kind", cell: (entry) => entry.kind },
  {
    header: "Change",
    numeric: true,
    cell: (entry) => (
      <span className={entry.delta_bytes < 0 ? "text-red-700" : "text-emerald-700"}>
        {/* From the exact bytes: a usage debit of a few MB reads "−4.2 MB", never "0 GB". */}
        {entry.delta_bytes > 0 ? "+" : entry.delta_bytes < 0 ? "−" : ""}
        {formatDataAmount(Math.abs(entry.delta_bytes) / 1e9)}
      </span>
    ),
  },
  { header: "Note", wrap: true, cell: (entry) => entry.note ?? <span className="text-slate-500">—</span> },
  { header: "Reference", cell: (entry) => <span className="font-mono text-xs">{entry.reference}</span> },
];

const ORDER_COLUMNS: readonly Column<AdminOrder>[] = [
  {
    header: "Created",
    cell: (order) => (
      <Link to={`/admin/orders/${order.order_id}`} className={tableLinkClass}>
        {formatDateTime(order.created_at)}
      </Link>
    ),
  },
  { header: "Data", numeric: true, cell: (order) => formatGb(order.gb) },
  { header: "Amount", numeric: true, cell: (order) => formatMoney(order.amount_usd) },
  { header: "Provider", cell: (order) => order.provider },
  { header: "Status", cell: (order) => <StatusBadge status={order.payment_status} /> },
];

const USAGE_SERIES = [{ key: "bytes", name: "Traffic", color: "#4f46e5" }] as const;

/** /admin/customers/:id: everything about one customer, and what an operator can do to them. */
export function CustomerPage() {
  const { id = "" } = useParams();
  const ledger = usePageParam("ledger_page");
  const orders = usePageParam("orders_page");
  const subusers = usePageParam("subusers_page");
  const query = useCustomer({
    id,
    ledgerPage: ledger.page,
    ordersPage: orders.page,
    subusersPage: subusers.page,
  });
  const customer = query.data;

  const back = (
    <Link to="/admin/customers" className={`${tableLinkClass} inline-flex items-center gap-1 text-sm`}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Customers
    </Link>
  );

  if (query.isPending)
    return (
      <AdminScreen>
        {back}
        <div role="status" aria-label="Loading customer" className="space-y-4">
          <Skeleton className="h-8 w-72" />
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            {["balance", "sessions", "token", "credentials"].map((key) => (
              <Skeleton key={key} className="h-24" />
            ))}
          </div>
          <Skeleton className="h-64 w-full" />
        </div>
      </AdminScreen>
    );
  if (!customer)
    return (
      <AdminScreen>
        {back}
        <AdminPageHeader title="Customer" />
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
            {customer.email}
            <AccountStateBadge disabledAt={customer.disabled_at} />
          </span>
        }
        description={`Customer since ${formatDateTime(customer.created_at)}${customer.disabled_at ? ` · disabled ${formatDateTime(customer.disabled_at)}` : ""}`}
      />
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Actions</legend>
        <CustomerActions customer={customer} />
      </fieldset>
      <StatGrid label="Account">
        <StatTile
          label="Balance"
          value={<span data-testid="customer-balance">{formatGb(customer.balance_gb)}</span>}
          hint={
            customer.leased_gb > 0 ? `${formatGb(customer.leased_gb)} reserved by gateways` : "None reserved"
          }
        />
        <StatTile
          label="Sessions"
          value={customer.sessions.active}
          hint={
            customer.sessions.latest_at
              ? `Last sign-in ${formatDateTime(customer.sessions.latest_at)}`
              : "Never signed in"
          }
        />
        <StatTile
          label="API token"
          value={customer.api_token.exists ? "Issued" : "None"}
          hint={
            customer.api_token.created_at
              ? `Since ${formatDateTime(customer.api_token.created_at)}`
              : undefined
          }
        />
        <StatTile
          label="Proxy username"
          value={<span className="font-mono text-base">{customer.proxy_credentials.username ?? "—"}</span>}
          hint={
            customer.proxy_credentials.updated_at
              ? `Set ${formatDateTime(customer.proxy_credentials.updated_at)}`
              : "No credentials yet"
          }
        />
      </StatGrid>
      <AdminCard title="Usage, last 30 days (UTC)">
        {customer.usage_by_day.every((day) => day.bytes === 0) ? (
          <StateMessage>{NO_USAGE}</StateMessage>
        ) : (
          <DayChart
            caption="Usage per day"
            rows={customer.usage_by_day}
            series={USAGE_SERIES}
            format={formatBytes}
          />
        )}
      </AdminCard>
      <CustomerSubusersCard subusers={customer.subusers} pageHref={subusers.pageHref} />
      <AdminCard title="Ledger">
        {customer.ledger.data.length === 0 ? (
          <StateMessage>{NO_LEDGER}</StateMessage>
        ) : (
          <>
            <DataTable
              caption="Ledger"
              columns={LEDGER_COLUMNS}
              rows={customer.ledger.data}
              rowKey={(entry) => String(entry.id)}
            />
            <Pagination
              label="Ledger pages"
              page={customer.ledger.page}
              perPage={customer.ledger.per_page}
              total={customer.ledger.total}
              pageHref={ledger.pageHref}
            />
          </>
        )}
      </AdminCard>
      <AdminCard title="Orders">
        {customer.orders.data.length === 0 ? (
          <StateMessage>{NO_ORDERS}</StateMessage>
        ) : (
          <>
            <DataTable
              caption="Orders"
              columns={ORDER_COLUMNS}
              rows={customer.orders.data}
              rowKey={(order) => order.order_id}
            />
            <Pagination
              label="Order pages"
              page={customer.orders.page}
              perPage={customer.orders.per_page}
              total={customer.orders.total}
              pageHref={orders.pageHref}
            />
          </>
        )}
      </AdminCard>
    </AdminScreen>
  );
}
