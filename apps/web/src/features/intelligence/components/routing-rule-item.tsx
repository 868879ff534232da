import type { RoutingRule } from "@bytetoll/contracts";
import { ToggleSwitch } from "../../../components/ui/toggle-switch.tsx";
import { formatDateTime, formatGb, formatMoney } from "../../../lib/format.ts";

const VERDICT_TEXT: Record<RoutingRule["verdict"], string> = {
  eligible: "datacenter works",
  blocked: "blocks datacenter",
  unknown: "not decided yet",
};

/** What the learner saw: its verdict, when it last probed, the signal that decided. */
export function learnerSummary(rule: RoutingRule): string {
  const parts = [`Learner: ${VERDICT_TEXT[rule.verdict]}`];
  // The operator's decision wins over this rule for every customer: say so first.
  if (rule.override === "datacenter") parts.unshift("Operator: datacenter, whatever this switch says");
  if (rule.override === "premium") parts.unshift("Operator: mobile, whatever this switch says");
  if (rule.last_probe_at) parts.push(`probed ${formatDateTime(rule.last_probe_at)}`);
  if (rule.evidence?.signal) parts.push(rule.evidence.signal);
  if (rule.decided_by === "user") parts.push("your choice stays until you change it");
  return parts.join(" · ");
}

export interface RoutingRuleItemProps {
  rule: RoutingRule;
  onToggle(enabled: boolean): void;
}

export function RoutingRuleItem({ rule, onToggle }: RoutingRuleItemProps) {
  return (
    <li className="space-y-1 py-3">
      <ToggleSwitch
        label={rule.rule}
        hint={learnerSummary(rule)}
        checked={rule.enabled}
        onChange={onToggle}
      />
      <p className="text-xs text-slate-600">
        {formatGb(rule.dc_gb_30d)} over datacenter in the last 30 days · saved{" "}
        {formatMoney(rule.saved_usd_30d)}
      </p>
    </li>
  );
}
