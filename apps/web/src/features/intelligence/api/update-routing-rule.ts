import type { RoutingRule } from "@bytetoll/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { ROUTING_RULES_QUERY_KEY } from "./get-routing-rules.ts";

export const ROUTING_RULE_UPDATE_FAILED = "Failed to update routing rule";

export interface RoutingRuleChange {
  id: number;
  enabled: boolean;
}

/** PATCH /settings/routing/rules/{id}: on sends the domain over datacenter, off over mobile. */
export async function updateRoutingRule({ id, enabled }: RoutingRuleChange): Promise<RoutingRule> {
  let body: { success?: unknown; data?: unknown };
  try {
    body = await apiRequest(`/settings/routing/rules/${id}`, { method: "PATCH", json: { enabled } });
  } catch {
    throw new Error(ROUTING_RULE_UPDATE_FAILED);
  }
  if (body.success !== true || !body.data) throw new Error(ROUTING_RULE_UPDATE_FAILED);
  return body.data as RoutingRule;
}

const switched = (rule: RoutingRule, enabled: boolean): RoutingRule => ({
  ...rule,
  enabled,
  service: enabled ? "datacenter" : "premium",
  decided_by: "user",
});

/** The list shows the new state at once; a failure puts the old list back; either way the list
 * is read again afterwards. */
export function useUpdateRoutingRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRoutingRule,
    onMutate: async (change: RoutingRuleChange) => {
      await queryClient.cancelQueries({ queryKey: ROUTING_RULES_QUERY_KEY });
      const previous = queryClient.getQueryData<RoutingRule[]>(ROUTING_RULES_QUERY_KEY);
      queryClient.setQueryData<RoutingRule[]>(ROUTING_RULES_QUERY_KEY, (rules) =>
        rules?.map((rule) => (rule.id === change.id ? switched(rule, change.enabled) : rule)),
      );
      return { previous };
    },
    onError: (_error, _change, context) => {
      if (context?.previous) queryClient.setQueryData(ROUTING_RULES_QUERY_KEY, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ROUTING_RULES_QUERY_KEY }),
  });
}
