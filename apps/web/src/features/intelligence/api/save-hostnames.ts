import type { HostnamesResponse } from "@bytetoll/contracts";
import { useMutation, useMutationState, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { HOSTNAMES_QUERY_KEY, type HostnameEntry } from "./get-hostnames.ts";
import { ROUTING_RULES_QUERY_KEY } from "./get-routing-rules.ts";

export const HOSTNAMES_UPDATE_FAILED = "Failed to update hostnames";

/** POST /settings/hostnames: replaces the list; success must be true. */
export async function saveHostnames(hostnames: string[]): Promise<HostnameEntry[]> {
  const body = await apiRequest<Partial<HostnamesResponse> & { success?: unknown }>("/settings/hostnames", {
    method: "POST",
    json: { hostnames },
  });
  if (body.success !== true || !body.data) throw new Error(HOSTNAMES_UPDATE_FAILED);
  return body.data.hostnames.map((entry) => ({ hostname: entry.hostname, override: entry.override ?? null }));
}

const SAVE_HOSTNAMES_KEY = ["account", "intelligence", "save-hostnames"] as const;

/** Saving refreshes the list, and the rules: hints the learner already judged become rules at once. */
export function useSaveHostnames() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: SAVE_HOSTNAMES_KEY,
    mutationFn: saveHostnames,
    // The list before this save: what is new in it is what the learner has just been asked to check.
    onMutate: (): string[] =>
      (queryClient.getQueryData<HostnameEntry[]>(HOSTNAMES_QUERY_KEY) ?? []).map((entry) => entry.hostname),
    onSuccess: async (saved) => {
      queryClient.setQueryData(HOSTNAMES_QUERY_KEY, saved);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: HOSTNAMES_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: ROUTING_RULES_QUERY_KEY }),
      ]);
    },
  });
}

export interface HostnamesAdded {
  hostnames: string[];
  /** When the save that added them was sent (ms since the epoch). */
  at: number;
}

/** The host names the latest successful save on this page added, and when: the learner probes a
 * new hint within seconds of its save. */
export function useHostnamesAdded(): HostnamesAdded | null {
  const saves = useMutationState({
    filters: { mutationKey: SAVE_HOSTNAMES_KEY, status: "success" },
    select: (mutation) => {
      const sent = (mutation.state.variables as string[] | undefined) ?? [];
      const before = new Set((mutation.state.context as string[] | undefined) ?? []);
      return { hostnames: sent.filter((hostname) => !before.has(hostname)), at: mutation.state.submittedAt };
    },
  });
  return saves.at(-1) ?? null;
}
