import type { AuditEntry } from "@bytetoll/contracts";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { ScrollRegion } from "../../../components/ui/scroll-region.tsx";
import { formatDateTime } from "../../../lib/format.ts";
import { AUDIT_FILTERS, useAuditLog } from "../api/get-audit-log.ts";
import { useListParams } from "../hooks/use-list-params.ts";
import { AdminCard, AdminPageHeader, AdminScreen } from "./admin-card.tsx";
import { type Column, DataTable, tableLinkClass } from "./data-table.tsx";
import { Pagination } from "./pagination.tsx";
import { errorMessage, LoadingRows, StateMessage } from "./state-message.tsx";

export const NO_AUDIT = "No operator has acted yet.";
export const NO_MATCHING_AUDIT = "No action matches these filters.";

const SUBJECT_PAGES: Record<string, string> = { account: "/admin/customers/", order: "/admin/orders/" };

/** An account or payout by its customer's e-mail, an order by its short number and customer, a
 * deal by its title; the bare id only when the subject is gone (and in the link's title). */
function SubjectName({ entry }: { entry: AuditEntry }) {
  const label = entry.subject_label;
  if (!label) return <span className="font-mono text-xs">{entry.subject_id}</span>;
  const text = entry.subject_type === "order" ? `Order ${entry.subject_id.slice(0, 8)} · ${label}` : label;
  return <span title={entry.subject_id}>{text}</span>;
}

function Subject({ entry }: { entry: AuditEntry }) {
  const page = SUBJECT_PAGES[entry.subject_type];
  const id = <SubjectName entry={entry} />;
  return (
    <span className="inline-flex items-center gap-2">
      <span>{entry.subject_type}</span>
      {page ? (
        <Link to={`${page}${entry.subject_id}`} className={tableLinkClass}>
          {id}
        </Link>
      ) : (
        id
      )}
    </span>
  );
}

function Change({ entry }: { entry: AuditEntry }) {
  if (entry.before === null && entry.after === null) return <span className="text-slate-500">—</span>;
  return (
    <details className="max-w-sm whitespace-normal">
      <summary className="cursor-pointer text-xs">Before → after</summary>
      <div className="mt-1 grid gap-1 text-xs sm:grid-cols-2">
        <ScrollRegion label="Before" className="rounded bg-slate-50 p-2">
          <pre>{JSON.stringify(entry.before, null, 2)}</pre>
        </ScrollRegion>
        <ScrollRegion label="After" className="rounded bg-slate-50 p-2">
          <pre>{JSON.stringify(entry.after, null, 2)}</pre>
        </ScrollRegion>
      </div>
    </details>
  );
}

const COLUMNS: readonly Column<AuditEntry>[] = [
  { header: "When", cell: (entry) => formatDateTime(entry.created_at) },
  { header: "Who", cell: (entry) => entry.actor },
  { header: "Action", cell: (entry) => <span className="font-mono text-xs">{entry.action}</span> },
  // A deal's title and an operator's note are free text: they wrap rather than widen the table.
  { header: "Subject", wrap: true, cell: (entry) => <Subject entry={entry} /> },
  { header: "Note", wrap: true, cell: (entry) => entry.note ?? <span className="text-slate-500">—</span> },
  { header: "Change", cell: (entry) => <Change entry={entry} /> },
];

/** /admin/audit: every operator action, newest first, filtered by who, what and on what. */
export function AuditLogPage() {
  const { page, perPage, filters, setFilters, pageHref } = useListParams(AUDIT_FILTERS);
  const audit = useAuditLog({ page, perPage, ...filters });
  const data = audit.data;
  const filtered = Object.values(filters).some(Boolean);
  return (
    <AdminScreen>
      <AdminPageHeader
        title="Audit log"
        description="Every operator action, kept for good: it cannot be edited."
      />
      <AdminCard title="Filters">
        <AuditFilters key={JSON.stringify(filters)} filters={filters} onApply={setFilters} />
      </AdminCard>
      <AdminCard title="Actions">
        {audit.isPending ? (
          <LoadingRows rows={5} label="Loading audit log" />
        ) : !data ? (
          <StateMessage error onRetry={() => void audit.refetch()}>
            {errorMessage(audit.error)}
          </StateMessage>
        ) : data.data.length === 0 ? (
          <StateMessage>{filtered ? NO_MATCHING_AUDIT : NO_AUDIT}</StateMessage>
        ) : (
          <>
            <DataTable
              caption="Audit log"
              columns={COLUMNS}
              rows={data.data}
              rowKey={(entry) => String(entry.id)}
            />
            <Pagination
              label="Audit log pages"
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

type AuditFilterValues = Record<(typeof AUDIT_FILTERS)[number], string>;

const LABELS: Record<keyof AuditFilterValues, { label: string; placeholder: string }> = {
  actor: { label: "Who", placeholder: "ops@example.com" },
  action: { label: "Action", placeholder: "customer.disable" },
  subject: { label: "Subject id", placeholder: "An account, order, deal or payout id" },
};

function AuditFilters({
  filters,
  onApply,
}: {
  filters: AuditFilterValues;
  onApply: (filters: AuditFilterValues) => void;
}) {
  const [draft, setDraft] = useState(filters);
  function submit(event: FormEvent) {
    event.preventDefault();
    onApply({ actor: draft.actor.trim(), action: draft.action.trim(), subject: draft.subject.trim() });
  }
  return (
    <form onSubmit={submit} className="grid gap-3 p-4 sm:grid-cols-3 sm:p-6">
      {AUDIT_FILTERS.map((name) => (
        <label key={name} className="text-sm font-medium text-slate-700">
          {LABELS[name].label}
          <input
            type="search"
            value={draft[name]}
            placeholder={LABELS[name].placeholder}
            onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
            className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-1.5 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          />
        </label>
      ))}
      <div className="flex gap-2 sm:col-span-3">
        <Button type="submit">Apply filters</Button>
        <Button variant="secondary" onClick={() => onApply({ actor: "", action: "", subject: "" })}>
          Clear
        </Button>
      </div>
    </form>
  );
}
