import { useId } from "react";
import { useHostnames } from "../api/get-hostnames.ts";
import { useRoutingRules } from "../api/get-routing-rules.ts";
import { useUpdateRoutingRule } from "../api/update-routing-rule.ts";
import { RoutingRuleItem } from "./routing-rule-item.tsx";
import { UndecidedHostnames } from "./undecided-hostnames.tsx";

export const NO_RULES_YET = "No domains yet. Save hostnames above: the learner checks each within a minute.";

/** The user's rules, each with its toggle (on: datacenter) and what the learner saw. */
export function RoutingRulesList() {
  const rules = useRoutingRules();
  const hostnames = useHostnames();
  const update = useUpdateRoutingRule();
  const headingId = useId();

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Domains Routed to Datacenter Proxies
      </h2>
      {update.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {update.error.message}
        </p>
      ) : null}
      {rules.isPending ? (
        <p role="status" className="text-sm text-slate-500">
          Loading routing rules…
        </p>
      ) : rules.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {rules.error.message}
        </p>
      ) : rules.data.length === 0 && (hostnames.data ?? []).length === 0 ? (
        <p className="text-sm text-slate-500">{NO_RULES_YET}</p>
      ) : (
        <>
          {rules.data.length > 0 ? (
            <ul className="divide-y divide-slate-200">
              {rules.data.map((rule) => (
                <RoutingRuleItem
                  key={rule.id}
                  rule={rule}
                  onToggle={(enabled) => update.mutate({ id: rule.id, enabled })}
                />
              ))}
            </ul>
          ) : null}
          <UndecidedHostnames rules={rules.data} />
        </>
      )}
    </section>
  );
}
