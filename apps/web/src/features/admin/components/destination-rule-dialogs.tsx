import { DESTINATION_ACTIONS, type DestinationAction, type DestinationRule } from "@bytetoll/contracts";
import { useState } from "react";
import { toast } from "sonner";
import {
  type DestinationRuleDraft,
  useDeleteDestinationRule,
  useSaveDestinationRule,
} from "../api/destination-rules.ts";
import { ADMIN_TOASTER_ID } from "./admin-toaster.tsx";
import { ConfirmDialog, Field } from "./confirm-dialog.tsx";

export const ACTION_LABELS: Record<DestinationAction, string> = {
  block: "Block",
  allow: "Allow",
  report: "Report (let through, count)",
};

/** What a rule does, in words: "Blocks ports 25,465 on *.example.com for a@b.c". */
export function describeRule(rule: Pick<DestinationRule, "action" | "domain" | "ports" | "customer_email">) {
  const verb = { block: "Blocks", allow: "Allows", report: "Reports" }[rule.action];
  const target = [
    rule.ports ? `ports ${rule.ports}` : "every port",
    rule.domain ? `on ${rule.domain}` : "on any site",
  ];
  return `${verb} ${target.join(" ")} for ${rule.customer_email ?? "every customer"}`;
}

const blank = (value: string) => (value.trim() === "" ? null : value.trim());

/** Add or edit a rule: the API checks every field and the dialog shows its refusal. */
export function RuleDialog({ rule, onClose }: { rule?: DestinationRule; onClose: () => void }) {
  const save = useSaveDestinationRule(rule?.id);
  const [action, setAction] = useState<DestinationAction>(rule?.action ?? "block");
  const [domain, setDomain] = useState(rule?.domain ?? "");
  const [ports, setPorts] = useState(rule?.ports ?? "");
  const [customerId, setCustomerId] = useState(rule?.customer_id ?? "");
  const [reason, setReason] = useState(rule?.reason ?? "");
  const draft: DestinationRuleDraft = {
    action,
    domain: blank(domain),
    ports: blank(ports),
    customer_id: blank(customerId),
    reason: reason.trim(),
  };
  function confirm() {
    save.mutate(draft, {
      onSuccess: () => {
        toast.success(rule ? "Rule saved" : "Rule added", { toasterId: ADMIN_TOASTER_ID });
        onClose();
      },
    });
  }
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={rule ? `Edit rule ${rule.id}` : "Add a destination rule"}
      consequence={`${describeRule({ ...draft, customer_email: draft.customer_id ? "that customer" : null })}. Every gateway applies it within 5 seconds; the change is recorded in the audit log.`}
      confirmLabel={rule ? "Save rule" : "Add rule"}
      pending={save.isPending}
      error={save.error}
      onConfirm={confirm}
      testId="destination-rule-dialog"
    >
      <Field label="Action">
        {(control) => (
          <select
            {...control}
            value={action}
            onChange={(event) => setAction(event.target.value as DestinationAction)}
          >
            {DESTINATION_ACTIONS.map((value) => (
              <option key={value} value={value}>
                {ACTION_LABELS[value]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label="Domain"
        hint='"example.com" (that name), "*.example.com" (every name below it), or empty for any site.'
      >
        {(control) => (
          <input {...control} value={domain} onChange={(event) => setDomain(event.target.value)} />
        )}
      </Field>
      <Field
        label="Ports"
        hint='"25,465,587" or "1-1024", or empty for every port. A domain or ports is needed.'
      >
        {(control) => <input {...control} value={ports} onChange={(event) => setPorts(event.target.value)} />}
      </Field>
      <Field
        label="Customer id"
        hint="Empty: every customer. A customer's rules are read before the global ones."
      >
        {(control) => (
          <input {...control} value={customerId} onChange={(event) => setCustomerId(event.target.value)} />
        )}
      </Field>
      <Field label="Reason" hint="Shown to the client that is refused.">
        {(control) => (
          <input
            {...control}
            value={reason}
            maxLength={200}
            onChange={(event) => setReason(event.target.value)}
          />
        )}
      </Field>
    </ConfirmDialog>
  );
}

export function DeleteRuleDialog({ rule, onClose }: { rule: DestinationRule; onClose: () => void }) {
  const remove = useDeleteDestinationRule(rule.id);
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Delete rule ${rule.id}?`}
      consequence={`${describeRule(rule)} — no longer, on every gateway within 5 seconds. The audit log keeps the rule.`}
      confirmLabel="Delete rule"
      danger
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() =>
        remove.mutate(undefined, {
          onSuccess: () => {
            toast.success("Rule deleted", { toasterId: ADMIN_TOASTER_ID });
            onClose();
          },
        })
      }
      testId="delete-destination-rule-dialog"
    />
  );
}
