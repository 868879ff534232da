import type { AbuseLookupQuery, AbuseLookupRow, AbuseReportHit } from "@bytetoll/contracts";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { formatDataAmount } from "../../../lib/format.ts";
import { useAbuseLookup } from "../api/abuse-lookup.ts";
import { useCustomerAction } from "../api/customer-actions.ts";
import { AdminCard } from "./admin-card.tsx";
import { ADMIN_TOASTER_ID } from "./admin-toaster.tsx";
import { ConfirmDialog, Field } from "./confirm-dialog.tsx";
import { type Column, DataTable } from "./data-table.tsx";
import { errorMessage, StateMessage } from "./state-message.tsx";

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function DisableDialog({
  row,
  onClose,
  onDisabled,
}: {
  row: AbuseLookupRow;
  onClose: () => void;
  onDisabled: () => void;
}) {
  const act = useCustomerAction(row.customer_id);
  const [note, setNote] = useState("");
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Disable ${row.email}?`}
      consequence="Every gateway refuses the account's credentials, sub-users and allowlisted addresses within a second and closes their connections; its API calls get 403 and sign-in is refused. The note goes into the audit log."
      confirmLabel="Disable customer"
      danger
      pending={act.isPending}
      error={act.error}
      onConfirm={() =>
        act.mutate(
          { action: "disable", note },
          {
            onSuccess: () => {
              toast.success(`${row.email} disabled`, { toasterId: ADMIN_TOASTER_ID });
              onDisabled();
              onClose();
            },
          },
        )
      }
      testId="abuse-disable-dialog"
    >
      <Field label="Note" hint="Why: kept in the audit log.">
        {(control) => (
          <input
            {...control}
            value={note}
            maxLength={500}
            onChange={(event) => setNote(event.target.value)}
          />
        )}
      </Field>
    </ConfirmDialog>
  );
}

function columns(disable: (row: AbuseLookupRow) => void): readonly Column<AbuseLookupRow>[] {
  return [
    {
      header: "Customer",
      wrap: true,
      cell: (row) => (
        <Link className="text-indigo-700 underline" to={`/admin/customers/${row.customer_id}`}>
          {row.email}
        </Link>
      ),
    },
    {
      header: "Credentials",
      cell: (row) => (row.subuser_id === null ? "Own" : `Sub-user ${row.subuser_label ?? "(deleted)"}`),
    },
    { header: "Total", numeric: true, cell: (row) => formatDataAmount(row.total_bytes) },
    {
      header: "By day",
      wrap: true,
      cell: (row) => (
        <span className="text-xs">
          {row.days.map((day) => `${day.day}: ${formatDataAmount(day.bytes)}`).join(" · ")}
        </span>
      ),
    },
    {
      header: "Action",
      cell: (row) =>
        row.disabled ? (
          <span className="text-slate-500">Disabled</span>
        ) : (
          <Button variant="secondary" className="text-red-700" onClick={() => disable(row)}>
            Disable customer
          </Button>
        ),
    },
  ];
}

const REPORT_COLUMNS: readonly Column<AbuseReportHit>[] = [
  { header: "Rule", wrap: true, cell: (hit) => `${hit.rule_id}: ${hit.reason ?? "(deleted)"}` },
  { header: "Customer", wrap: true, cell: (hit) => hit.email },
  {
    header: "Credentials",
    cell: (hit) => (hit.subuser_id === null ? "Own" : `Sub-user ${hit.subuser_label ?? "(deleted)"}`),
  },
  { header: "Name", cell: (hit) => <span className="font-mono text-xs">{hit.domain}</span> },
  { header: "Day", cell: (hit) => hit.day },
  { header: "Requests", numeric: true, cell: (hit) => hit.hits },
];

/** The abuse look-up: a complaint names a site or an address and a time; this says whose traffic
 * went there, from the usage already kept. */
export function AbuseLookupCard() {
  const [target, setTarget] = useState("");
  const [from, setFrom] = useState(() => isoDay(Date.now() - 6 * 86_400_000));
  const [to, setTo] = useState(() => isoDay(Date.now()));
  const [query, setQuery] = useState<AbuseLookupQuery | null>(null);
  const [disabling, setDisabling] = useState<AbuseLookupRow | null>(null);
  const lookup = useAbuseLookup(query);

  function submit(event: FormEvent) {
    event.preventDefault();
    const next = { target: target.trim(), from, to };
    // The same question again reads the usage again: it may have grown since.
    if (query && query.target === next.target && query.from === from && query.to === to)
      void lookup.refetch();
    else setQuery(next);
  }

  return (
    <AdminCard title="Abuse look-up">
      <form
        onSubmit={submit}
        className="grid gap-4 px-4 py-4 sm:grid-cols-4 sm:px-6"
        aria-label="Abuse look-up"
      >
        <Field label="Domain or address">
          {(control) => (
            <input
              {...control}
              value={target}
              required
              placeholder="example.com"
              onChange={(event) => setTarget(event.target.value)}
            />
          )}
        </Field>
        <Field label="From">
          {(control) => (
            <input {...control} type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
          )}
        </Field>
        <Field label="To" hint="At most 31 days.">
          {(control) => (
            <input {...control} type="date" value={to} onChange={(event) => setTo(event.target.value)} />
          )}
        </Field>
        <div className="flex items-start sm:pt-6">
          <Button type="submit" disabled={lookup.isFetching}>
            {lookup.isFetching ? "Looking…" : "Look up"}
          </Button>
        </div>
      </form>
      {query === null ? null : lookup.isError ? (
        <StateMessage error>{errorMessage(lookup.error)}</StateMessage>
      ) : lookup.data && lookup.data.rows.length === 0 ? (
        <StateMessage>
          No traffic to {lookup.data.target} from {lookup.data.from} to {lookup.data.to}.
        </StateMessage>
      ) : lookup.data ? (
        <DataTable
          caption={`Traffic to ${lookup.data.target}`}
          columns={columns(setDisabling)}
          rows={lookup.data.rows}
          rowKey={(row) => `${row.customer_id} ${row.subuser_id ?? "own"}`}
        />
      ) : null}
      {lookup.data && lookup.data.reported.length > 0 ? (
        <>
          <h3 className="border-t border-slate-200 px-4 pt-4 text-sm font-semibold text-slate-900 sm:px-6">
            Let through by report rules
          </h3>
          <DataTable
            caption={`Let through by report rules to ${lookup.data.target}`}
            columns={REPORT_COLUMNS}
            rows={lookup.data.reported}
            rowKey={(hit) => `${hit.rule_id} ${hit.customer_id} ${hit.subuser_id} ${hit.domain} ${hit.day}`}
          />
        </>
      ) : null}
      {disabling ? (
        <DisableDialog
          row={disabling}
          onClose={() => setDisabling(null)}
          onDisabled={() => void lookup.refetch()}
        />
      ) : null}
    </AdminCard>
  );
}
