import type { AdminOrderDetail } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

/** GET /admin/orders/{id}: the order with its events, oldest first. */
export async function getOrder(id: string, signal?: AbortSignal): Promise<AdminOrderDetail> {
  const body = await apiRequest<ApiSuccess<AdminOrderDetail>>(`/admin/orders/${encodeURIComponent(id)}`, {
    signal,
  });
  return body.data;
}

export const orderQueryKey = (id: string) => adminQueryKey("order", id);

export const orderQueryOptions = (id: string) =>
  queryOptions({ queryKey: orderQueryKey(id), queryFn: ({ signal }) => getOrder(id, signal) });

export function useOrder(id: string) {
  return useQuery(orderQueryOptions(id));
}
