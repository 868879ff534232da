import type { RoutingRule } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

export const ROUTING_RULES_FAILED = "Failed to fetch routing rules";
/** The learner turns new hints into rules within a minute: an open page picks them up. */
export const ROUTING_RULES_REFRESH_MS = 15_000;

/** Under ["account"], which logout's cleanup removes. */
export const ROUTING_RULES_QUERY_KEY = ["account", "intelligence", "routing-rules"] as const;

/** GET /settings/routing/rules: the user's rules with the learner's verdict, evidence and savings. */
export async function getRoutingRules(signal?: AbortSignal): Promise<RoutingRule[]> {
  let body: { success?: unknown; data?: unknown };
  try {
    body = await apiRequest("/settings/routing/rules", { signal });
  } catch {
    throw new Error(ROUTING_RULES_FAILED);
  }
  if (body.success !== true || !Array.isArray(body.data)) throw new Error(ROUTING_RULES_FAILED);
  return body.data as RoutingRule[];
}

export const routingRulesQueryOptions = () =>
  queryOptions({
    queryKey: ROUTING_RULES_QUERY_KEY,
    queryFn: ({ signal }) => getRoutingRules(signal),
    refetchOnWindowFocus: false,
    refetchInterval: ROUTING_RULES_REFRESH_MS,
  });

export function useRoutingRules() {
  return useQuery(routingRulesQueryOptions());
}
