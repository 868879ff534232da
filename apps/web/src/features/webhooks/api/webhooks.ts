import type { CreateWebhookRequest, WebhookDelivery, WebhookEndpoint } from "@bytetoll/contracts";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

/** Under ["account"], which logout's cleanup removes. */
export const WEBHOOKS_QUERY_KEY = ["account", "webhooks"] as const;
const deliveriesKey = (id: string) => [...WEBHOOKS_QUERY_KEY, id, "deliveries"] as const;

/** GET /webhooks: the account's endpoints, each secret shown by its last 4 characters. */
export const webhooksQueryOptions = () =>
  queryOptions({
    queryKey: WEBHOOKS_QUERY_KEY,
    queryFn: async ({ signal }) =>
      (await apiRequest<{ data: WebhookEndpoint[] }>("/webhooks", { signal })).data,
  });

/** While a delivery is pending the log is read this often: a test ping lands within a second. */
export const PENDING_REFRESH_MS = 1_000;

/** GET /webhooks/{id}/deliveries: the last 100, refreshed while the log is open so retries show,
 * and every second while one is pending so "Send test" turns into its outcome without a reload. */
export const deliveriesQueryOptions = (id: string) =>
  queryOptions({
    queryKey: deliveriesKey(id),
    queryFn: async ({ signal }) =>
      (await apiRequest<{ data: WebhookDelivery[] }>(`/webhooks/${id}/deliveries`, { signal })).data,
    refetchInterval: (query) =>
      query.state.data?.some((delivery) => delivery.status === "pending") ? PENDING_REFRESH_MS : 5_000,
  });

/** POST /webhooks: the answer is the only time the whole secret is shown. */
export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: CreateWebhookRequest) =>
      (await apiRequest<{ data: WebhookEndpoint }>("/webhooks", { method: "POST", json: request })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_QUERY_KEY }),
  });
}

/** DELETE /webhooks/{id}. */
export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(`/webhooks/${id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_QUERY_KEY }),
  });
}

/** POST /webhooks/{id}/test: a ping; the log shows its delivery. */
export function useTestWebhook(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(`/webhooks/${id}/test`, { method: "POST" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(id) }),
  });
}
