import type { DestinationRule } from "@bytetoll/contracts";
import { Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { formatDateTime } from "../../../lib/format.ts";
import { useDestinationRules } from "../api/destination-rules.ts";
import { AbuseLookupCard } from "./abuse-lookup-card.tsx";
import { AdminCard, AdminPageHeader, AdminScreen } from "./admin-card.tsx";
import { type Column, DataTable } from "./data-table.tsx";
import { ACTION_LABELS, DeleteRuleDialog, RuleDialog } from "./destination-rule-dialogs.tsx";
import { errorMessage, LoadingRows, StateMessage } from "./state-message.tsx";

export const NO_RULES =
  "No destination rules: every site and port the egress rules allow is open to every customer.";

type Open = { kind: "add" } | { kind: "edit" | "delete"; rule: DestinationRule } | null;

function columns(setOpen: (open: Open) => void): readonly Column<DestinationRule>[] {
  return [
    { header: "Action", cell: (rule) => ACTION_LABELS[rule.action] },
    {
      header: "Domain",
      cell: (rule) => <span className="font-mono text-xs">{rule.domain ?? "any site"}</span>,
    },
    {
      header: "Ports",
      wrap: true,
      cell: (rule) => <span className="font-mono text-xs">{rule.ports ?? "every port"}</span>,
    },
    { header: "For", wrap: true, cell: (rule) => rule.customer_email ?? "Every customer" },
    { header: "Reason", wrap: true, cell: (rule) => rule.reason },
    { header: "Added", cell: (rule) => formatDateTime(rule.created_at) },
    {
      header: "Actions",
      cell: (rule) => (
        <span className="inline-flex gap-2">
          <Button
            variant="secondary"
            aria-label={`Edit rule ${rule.id}`}
            onClick={() => setOpen({ kind: "edit", rule })}
          >
            Edit
          </Button>
          <Button
            variant="secondary"
            className="text-red-700"
            aria-label={`Delete rule ${rule.id}`}
            onClick={() => setOpen({ kind: "delete", rule })}
          >
            Delete
          </Button>
        </span>
      ),
    },
  ];
}

/** /admin/policy: the operator's destination rules (docs/product.md#destination-policy), in the
 * order the gateway reads them, and the abuse look-up. */
export function PolicyPage() {
  const rules = useDestinationRules();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  return (
    <AdminScreen>
      <AdminPageHeader
        title="Policy"
        description="Where customers' traffic may go. A customer's rules are read before the global ones; within each, domain rules first, then block, report, allow, then the oldest. The first block or allow decides."
        actions={
          <Button onClick={() => setOpen({ kind: "add" })}>
            <Plus aria-hidden="true" className="size-4" />
            Add rule
          </Button>
        }
      />
      <AdminCard title="Destination rules">
        {rules.isPending ? (
          <LoadingRows rows={3} label="Loading rules" />
        ) : !rules.data ? (
          <StateMessage error onRetry={() => void rules.refetch()}>
            {errorMessage(rules.error)}
          </StateMessage>
        ) : rules.data.length === 0 ? (
          <StateMessage>{NO_RULES}</StateMessage>
        ) : (
          <DataTable
            caption="Destination rules"
            columns={columns(setOpen)}
            rows={rules.data}
            rowKey={(rule) => String(rule.id)}
          />
        )}
      </AdminCard>
      <AbuseLookupCard />
      {open?.kind === "add" ? <RuleDialog onClose={close} /> : null}
      {open?.kind === "edit" ? <RuleDialog rule={open.rule} onClose={close} /> : null}
      {open?.kind === "delete" ? <DeleteRuleDialog rule={open.rule} onClose={close} /> : null}
    </AdminScreen>
  );
}
