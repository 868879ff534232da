import type { HostnamesResponse } from "@bytetoll/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { HOSTNAMES_QUERY_KEY } from "./get-hostnames.ts";
import { ROUTING_RULES_QUERY_KEY } from "./get-routing-rules.ts";

export const HOSTNAMES_UPDATE_FAILED = "Failed to update hostnames";

/** POST /settings/hostnames: replaces the list; success must be true. */
export async function saveHostnames(hostnames: string[]): Promise<string[]> {
  const body = await apiRequest<Partial<HostnamesResponse> & { success?: unknown }>("/settings/hostnames", {
    method: "POST",
    json: { hostnames },
  });
  if (body.success !== true || !body.data) throw new Error(HOSTNAMES_UPDATE_FAILED);
  return body.data.hostnames.map((entry) => entry.hostname);
}

/** Saving refreshes the list, and the rules: hints the learner already judged become rules at once. */
export function useSaveHostnames() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveHostnames,
    onSuccess: async (saved) => {
      queryClient.setQueryData(HOSTNAMES_QUERY_KEY, saved);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: HOSTNAMES_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: ROUTING_RULES_QUERY_KEY }),
      ]);
    },
  });
}
