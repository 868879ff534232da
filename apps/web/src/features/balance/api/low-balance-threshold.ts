import type { Profile, ProfileResponse } from "@bytetoll/contracts";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

/** Under ["account"], so logout's cleanup removes it with the rest of the user's data. */
const PROFILE_QUERY_KEY = ["account", "profile"] as const;

/** GET /account/profile: carries the low-balance alert threshold (GB, null = off). */
export async function getProfile(signal?: AbortSignal): Promise<Profile> {
  return (await apiRequest<ProfileResponse>("/account/profile", { signal })).data;
}

/** PATCH /account/profile with the threshold only; the server validates it. */
export async function setLowBalanceThreshold(thresholdGb: number | null): Promise<Profile> {
  const body = await apiRequest<ProfileResponse>("/account/profile", {
    method: "PATCH",
    json: { low_balance_threshold_gb: thresholdGb },
  });
  return body.data;
}

const profileQueryOptions = () =>
  queryOptions({ queryKey: PROFILE_QUERY_KEY, queryFn: ({ signal }) => getProfile(signal) });

export function useLowBalanceThreshold() {
  return useQuery({ ...profileQueryOptions(), select: (profile) => profile.low_balance_threshold_gb });
}

export function useSetLowBalanceThreshold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setLowBalanceThreshold,
    onSuccess: (profile) => queryClient.setQueryData(PROFILE_QUERY_KEY, profile),
  });
}
