import type { AdminCustomer } from "@bytetoll/contracts";
import { Search } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { formatDateTime, formatGb } from "../../../lib/format.ts";
import { useCustomers } from "../api/get-customers.ts";
import { useListParams } from "../hooks/use-list-params.ts";
import { AdminCard, AdminPageHeader, AdminScreen } from "./admin-card.tsx";
import { AccountStateBadge } from "./badges.tsx";
import { type Column, DataTable, tableLinkClass } from "./data-table.tsx";
import { Pagination } from "./pagination.tsx";
import { errorMessage, LoadingRows, StateMessage } from "./state-message.tsx";

export const NO_CUSTOMERS = "No customers yet.";
export const NO_MATCHING_CUSTOMERS = "No customer's e-mail contains that.";

const COLUMNS: readonly Column<AdminCustomer>[] = [
  {
    header: "E-mail",
    cell: (customer) => (
      <Link to={`/admin/customers/${customer.id}`} className={tableLinkClass}>
        {customer.email}
      </Link>
    ),
  },
  { header: "Balance", numeric: true, cell: (customer) => formatGb(customer.balance_gb) },
  { header: "State", cell: (customer) => <AccountStateBadge disabledAt={customer.disabled_at} /> },
  { header: "Signed up", cell: (customer) => formatDateTime(customer.created_at) },
];

/** /admin/customers: find a customer by e-mail; the list pages on the server. */
export function CustomersPage() {
  const { page, perPage, filters, setFilters, pageHref } = useListParams(["email"] as const);
  const customers = useCustomers({ page, perPage, email: filters.email });
  const data = customers.data;

  return (
    <AdminScreen>
      <AdminPageHeader title="Customers" description="Every account, newest first." />
      <AdminCard
        title="Accounts"
        actions={<EmailSearch value={filters.email} onSearch={(email) => setFilters({ email })} />}
      >
        {customers.isPending ? (
          <LoadingRows rows={5} label="Loading customers" />
        ) : customers.isError && !data ? (
          <StateMessage error onRetry={() => void customers.refetch()}>
            {errorMessage(customers.error)}
          </StateMessage>
        ) : !data || data.data.length === 0 ? (
          <StateMessage>{filters.email ? NO_MATCHING_CUSTOMERS : NO_CUSTOMERS}</StateMessage>
        ) : (
          <>
            <DataTable caption="Customers" columns={COLUMNS} rows={data.data} rowKey={(row) => row.id} />
            <Pagination
              label="Customer pages"
              page={page}
              perPage={data.per_page}
              total={data.total}
              pageHref={pageHref}
            />
          </>
        )}
      </AdminCard>
    </AdminScreen>
  );
}

function EmailSearch({ value, onSearch }: { value: string; onSearch: (email: string) => void }) {
  const [draft, setDraft] = useState(value);
  function submit(event: FormEvent) {
    event.preventDefault();
    onSearch(draft.trim());
  }
  return (
    <form aria-label="Search customers" onSubmit={submit} className="flex w-full gap-2 sm:w-auto">
      <label className="sr-only" htmlFor="customer-search">
        Search by e-mail
      </label>
      <input
        id="customer-search"
        type="search"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        placeholder="Search by e-mail"
        className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-1.5 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 sm:w-64"
      />
      <Button type="submit" variant="secondary" className="px-3 py-1.5">
        <Search aria-hidden="true" className="size-4" />
        Search
      </Button>
    </form>
  );
}
