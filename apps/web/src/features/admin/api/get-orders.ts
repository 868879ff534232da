import type { AdminOrdersPage } from "@bytetoll/contracts";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

export const ORDER_FILTERS = ["email", "status", "method", "provider", "from", "to"] as const;
export type OrderFilters = Record<(typeof ORDER_FILTERS)[number], string>;

export interface OrdersParams extends OrderFilters {
  page: number;
  perPage: number;
}

/** GET /admin/orders: every account's orders, newest first; empty filters are left out. */
export function getOrders(params: OrdersParams, signal?: AbortSignal): Promise<AdminOrdersPage> {
  const { page, perPage, ...filters } = params;
  const query: Record<string, string | number | undefined> = { page, per_page: perPage };
  for (const [name, value] of Object.entries(filters)) query[name] = value || undefined;
  return apiRequest<AdminOrdersPage>("/admin/orders", { query, signal });
}

export const ordersQueryOptions = (params: OrdersParams) =>
  queryOptions({
    queryKey: adminQueryKey("orders", params),
    queryFn: ({ signal }) => getOrders(params, signal),
    placeholderData: keepPreviousData,
  });

export function useOrders(params: OrdersParams) {
  return useQuery(ordersQueryOptions(params));
}
