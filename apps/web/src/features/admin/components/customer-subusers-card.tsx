import type { AdminCustomerDetail, AdminSubuser } from "@bytetoll/contracts";
import { formatDataAmount } from "../../../lib/format.ts";
import { PERIOD_LABELS } from "../../../lib/subuser-periods.ts";
import { AdminCard } from "./admin-card.tsx";
import { Badge } from "./badges.tsx";
import { type Column, DataTable } from "./data-table.tsx";
import { Pagination } from "./pagination.tsx";
import { StateMessage } from "./state-message.tsx";

export const NO_SUBUSERS = "No sub-users.";

const amount = (bytes: number) => formatDataAmount(bytes / 1e9);
const requests = (count: number) => `${count.toLocaleString("en-US")} request${count === 1 ? "" : "s"}`;

/** "1.2 GB of 5 GB per day (24%)", or "300 MB in total, no limit". */
function usedOfLimit(subuser: AdminSubuser): string {
  if (subuser.limit_bytes === null) return `${amount(subuser.used_bytes)} used, no limit`;
  const share = Math.round((subuser.used_bytes / subuser.limit_bytes) * 100);
  return `${amount(subuser.used_bytes)} of ${amount(subuser.limit_bytes)} ${PERIOD_LABELS[subuser.limit_period]} (${share}%)`;
}

const COLUMNS: readonly Column<AdminSubuser>[] = [
  { header: "Label", cell: (subuser) => <span className="font-medium text-slate-900">{subuser.label}</span> },
  { header: "Username", cell: (subuser) => <span className="font-mono text-xs">{subuser.username}</span> },
  { header: "Used / limit", cell: usedOfLimit },
  {
    header: "State",
    cell: (subuser) =>
      subuser.enabled ? <Badge tone="good">Enabled</Badge> : <Badge tone="muted">Disabled</Badge>,
  },
  { header: "Last 30 days", numeric: true, cell: (subuser) => amount(subuser.last_30_days.bytes) },
];

/** The customer page's sub-users: a page of them (the customer's own limits and switches, read
 * only), and how the last 30 days' traffic splits between them and the main credentials. */
export function CustomerSubusersCard({
  subusers,
  pageHref,
}: {
  subusers: AdminCustomerDetail["subusers"];
  pageHref: (page: number) => string;
}) {
  const { main_credentials: main, deleted } = subusers;
  const split = [`main credentials ${amount(main.bytes)} (${requests(main.requests)})`];
  if (deleted.bytes > 0 || deleted.requests > 0)
    split.push(`deleted sub-users ${amount(deleted.bytes)} (${requests(deleted.requests)})`);
  return (
    <AdminCard title={`Sub-users (${subusers.total})`}>
      <p className="px-4 pt-3 text-sm text-slate-600 sm:px-6" data-testid="subuser-traffic-split">
        {`Last 30 days: ${split.join("; ")}.`}
      </p>
      {subusers.data.length === 0 ? (
        <StateMessage>{NO_SUBUSERS}</StateMessage>
      ) : (
        <>
          <DataTable caption="Sub-users" columns={COLUMNS} rows={subusers.data} rowKey={(row) => row.id} />
          <Pagination
            label="Sub-user pages"
            page={subusers.page}
            perPage={subusers.per_page}
            total={subusers.total}
            pageHref={pageHref}
          />
        </>
      )}
    </AdminCard>
  );
}
