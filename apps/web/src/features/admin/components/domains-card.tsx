import { type AdminDomain, DOMAIN_OVERRIDES, type DomainOverride, VERDICTS } from "@bytetoll/contracts";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { formatDateTime } from "../../../lib/format.ts";
import { useDomains } from "../api/get-domains.ts";
import { useSetDomainOverride } from "../api/set-domain-override.ts";
import { useListParams } from "../hooks/use-list-params.ts";
import { AdminCard } from "./admin-card.tsx";
import { ADMIN_TOASTER_ID } from "./admin-toaster.tsx";
import { Badge, type Tone } from "./badges.tsx";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import { type Column, DataTable } from "./data-table.tsx";
import { Pagination } from "./pagination.tsx";
import { errorMessage, LoadingRows, StateMessage } from "./state-message.tsx";

export const NO_DOMAINS = "Intelligence has not judged any domain yet.";

const VERDICT_TONES: Record<string, Tone> = { eligible: "good", blocked: "bad", unknown: "muted" };
const OVERRIDE_WORDS: Record<DomainOverride | "none", string> = {
  datacenter: "Force datacenter",
  premium: "Force premium (mobile)",
  none: "No override",
};

interface Changing {
  domain: AdminDomain;
  override: DomainOverride | null;
}

/** Intelligence's verdict per domain with the evidence behind it, and a global override. */
export function DomainsCard() {
  const { page, perPage, filters, setFilters, pageHref } = useListParams(["search", "verdict"] as const);
  const domains = useDomains({ page, perPage, search: filters.search, verdict: filters.verdict });
  const [changing, setChanging] = useState<Changing | null>(null);
  const data = domains.data;

  const columns: readonly Column<AdminDomain>[] = [
    {
      header: "Domain",
      cell: (domain) => <span className="font-medium text-slate-900">{domain.domain}</span>,
    },
    {
      header: "Verdict",
      cell: (domain) => <Badge tone={VERDICT_TONES[domain.verdict] ?? "muted"}>{domain.verdict}</Badge>,
    },
    { header: "Evidence", cell: (domain) => <Evidence domain={domain} /> },
    { header: "Rules", numeric: true, cell: (domain) => domain.rules },
    {
      header: "Override",
      cell: (domain) => (
        <label className="text-sm">
          <span className="sr-only">Override for {domain.domain}</span>
          <select
            value={domain.override ?? "none"}
            onChange={(event) =>
              setChanging({
                domain,
                override: event.target.value === "none" ? null : (event.target.value as DomainOverride),
              })
            }
            className="rounded-lg border border-slate-300 bg-white py-1 pr-8 pl-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            {(["none", ...DOMAIN_OVERRIDES] as const).map((value) => (
              <option key={value} value={value}>
                {OVERRIDE_WORDS[value]}
              </option>
            ))}
          </select>
        </label>
      ),
    },
  ];

  return (
    <AdminCard
      title="Intelligence domains"
      actions={
        <DomainFilters
          key={`${filters.search}|${filters.verdict}`}
          search={filters.search}
          verdict={filters.verdict}
          onApply={setFilters}
        />
      }
    >
      {domains.isPending ? (
        <LoadingRows rows={4} label="Loading domains" />
      ) : !data ? (
        <StateMessage error onRetry={() => void domains.refetch()}>
          {errorMessage(domains.error)}
        </StateMessage>
      ) : data.data.length === 0 ? (
        <StateMessage>{filters.search || filters.verdict ? "No domain matches." : NO_DOMAINS}</StateMessage>
      ) : (
        <>
          <DataTable
            caption="Intelligence domains"
            columns={columns}
            rows={data.data}
            rowKey={(row) => row.domain}
          />
          <Pagination
            label="Domain pages"
            page={page}
            perPage={data.per_page}
            total={data.total}
            pageHref={pageHref}
          />
        </>
      )}
      {changing ? <OverrideDialog changing={changing} onClose={() => setChanging(null)} /> : null}
    </AdminCard>
  );
}

function Evidence({ domain }: { domain: AdminDomain }) {
  const evidence = domain.evidence;
  if (!evidence) return <span className="text-slate-500">Not probed yet</span>;
  return (
    <details className="max-w-xs whitespace-normal">
      <summary className="cursor-pointer text-xs">
        {evidence.signal ?? "No block signal"} · {evidence.source}
        {domain.last_probe_at ? ` · ${formatDateTime(domain.last_probe_at)}` : ""}
      </summary>
      <ul className="mt-1 space-y-1 text-xs text-slate-600">
        {evidence.observations.map((observation) => (
          <li key={`${observation.at} ${observation.pool}`}>
            {observation.pool}: {observation.status ?? observation.error ?? "no answer"}
            {observation.signal ? ` (${observation.signal})` : ""} · {observation.bytes} bytes
          </li>
        ))}
      </ul>
    </details>
  );
}

function DomainFilters({
  search,
  verdict,
  onApply,
}: {
  search: string;
  verdict: string;
  onApply: (filters: { search: string; verdict: string }) => void;
}) {
  const [draft, setDraft] = useState({ search, verdict });
  function submit(event: FormEvent) {
    event.preventDefault();
    onApply({ search: draft.search.trim(), verdict: draft.verdict });
  }
  const inputClass =
    "rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";
  return (
    <form aria-label="Filter domains" onSubmit={submit} className="flex w-full flex-wrap gap-2 sm:w-auto">
      <label className="sr-only" htmlFor="domain-search">
        Search domains
      </label>
      <input
        id="domain-search"
        type="search"
        placeholder="Search domains"
        value={draft.search}
        onChange={(event) => setDraft({ ...draft, search: event.target.value })}
        className={`${inputClass} min-w-0 flex-1`}
      />
      <label className="sr-only" htmlFor="domain-verdict">
        Verdict
      </label>
      <select
        id="domain-verdict"
        value={draft.verdict}
        onChange={(event) => setDraft({ ...draft, verdict: event.target.value })}
        className={inputClass}
      >
        <option value="">Any verdict</option>
        {VERDICTS.map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </select>
      <Button type="submit" variant="secondary" className="px-3 py-1.5">
        Filter
      </Button>
    </form>
  );
}

function OverrideDialog({ changing, onClose }: { changing: Changing; onClose: () => void }) {
  const mutation = useSetDomainOverride();
  const { domain, override } = changing;
  const consequence =
    override === null
      ? `Removes the override: under smart routing, ${domain.domain} goes where each customer's rules and Intelligence's verdict (${domain.verdict}) send it.`
      : `Under smart routing, every customer's requests to ${domain.domain} and the names below it go over ${override === "datacenter" ? "datacenter" : "mobile (premium)"}, whatever their rules and the verdict say.`;
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={`${OVERRIDE_WORDS[override ?? "none"]} for ${domain.domain}`}
      consequence={consequence}
      confirmLabel="Apply"
      pending={mutation.isPending}
      error={mutation.error}
      onConfirm={() =>
        mutation.mutate(
          { domain: domain.domain, override },
          {
            onSuccess: () => {
              toast.success(`${domain.domain}: ${OVERRIDE_WORDS[override ?? "none"]}`, {
                toasterId: ADMIN_TOASTER_ID,
              });
              onClose();
            },
          },
        )
      }
      testId="override-dialog"
    />
  );
}
