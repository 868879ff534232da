import type { ActivityEntry, InviteMember, MemberRole, TeamMember } from "@bytetoll/contracts";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

export const TEAM_QUERY_KEY = ["account", "team"] as const;
const ACTIVITY_QUERY_KEY = [...TEAM_QUERY_KEY, "activity"] as const;

/** GET /team/members: the owner first. */
export const membersQueryOptions = () =>
  queryOptions({
    queryKey: [...TEAM_QUERY_KEY, "members"],
    queryFn: async ({ signal }) =>
      (await apiRequest<{ data: TeamMember[] }>("/team/members", { signal })).data,
  });

/** GET /team/activity: what members changed, newest first. */
export const activityQueryOptions = () =>
  queryOptions({
    queryKey: ACTIVITY_QUERY_KEY,
    queryFn: async ({ signal }) =>
      (await apiRequest<{ data: ActivityEntry[] }>("/team/activity", { signal })).data,
  });

function useTeamMutation<T>(mutationFn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TEAM_QUERY_KEY }),
  });
}

/** POST /team/members: the person gets an e-mail. */
export const useInviteMember = () =>
  useTeamMutation((input: InviteMember) => apiRequest("/team/members", { method: "POST", json: input }));

/** PATCH /team/members/{id}. */
export const useChangeRole = () =>
  useTeamMutation(({ id, role }: { id: string; role: MemberRole }) =>
    apiRequest(`/team/members/${id}`, { method: "PATCH", json: { role } }),
  );

/** DELETE /team/members/{id}: their tokens for this account stop working at once. */
export const useRemoveMember = () =>
  useTeamMutation((id: string) => apiRequest(`/team/members/${id}`, { method: "DELETE" }));
