import type {
  AutoTopupCardSetupResponse,
  AutoTopupSettings,
  AutoTopupSettingsResponse,
  AutoTopupUpdate,
} from "@bytetoll/contracts";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

/** Under ["account"], which logout's cleanup removes. */
export const AUTO_TOPUP_QUERY_KEY = ["account", "auto-topup"] as const;

/** GET /settings/auto-topup: on or off, threshold, amount, monthly cap and the saved card. */
export const autoTopupQueryOptions = () =>
  queryOptions({
    queryKey: AUTO_TOPUP_QUERY_KEY,
    queryFn: async ({ signal }) =>
      (await apiRequest<AutoTopupSettingsResponse>("/settings/auto-topup", { signal })).data,
    staleTime: 30_000,
  });

export const useAutoTopup = () => useQuery(autoTopupQueryOptions());

function useSettingsMutation<T>(send: (input: T) => Promise<AutoTopupSettings>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (settings) => queryClient.setQueryData(AUTO_TOPUP_QUERY_KEY, settings),
  });
}

/** PUT /settings/auto-topup with every field (409 "Add a card first" without a card). */
export const useSaveAutoTopup = () =>
  useSettingsMutation(
    async (update: AutoTopupUpdate) =>
      (await apiRequest<AutoTopupSettingsResponse>("/settings/auto-topup", { method: "PUT", json: update }))
        .data,
  );

/** DELETE /settings/auto-topup/card: the card goes, and auto top-up turns off. */
export const useRemoveCard = () =>
  useSettingsMutation(
    async () =>
      (await apiRequest<AutoTopupSettingsResponse>("/settings/auto-topup/card", { method: "DELETE" })).data,
  );

/** POST /settings/auto-topup/card: where to save a card (the card provider's page). */
export function useStartCardSetup() {
  return useMutation({
    mutationFn: async () =>
      (await apiRequest<AutoTopupCardSetupResponse>("/settings/auto-topup/card", { method: "POST" })).data
        .redirect_url,
  });
}
