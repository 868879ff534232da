import type { AdminCustomerDetail } from "@bytetoll/contracts";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

export interface CustomerParams {
  id: string;
  ledgerPage: number;
  ordersPage: number;
  subusersPage: number;
}

/** GET /admin/customers/{id}: balance, sessions, token, usage, and a page each of ledger, orders
 * and sub-users. */
export async function getCustomer(
  params: CustomerParams,
  signal?: AbortSignal,
): Promise<AdminCustomerDetail> {
  const body = await apiRequest<ApiSuccess<AdminCustomerDetail>>(
    `/admin/customers/${encodeURIComponent(params.id)}`,
    {
      query: {
        ledger_page: params.ledgerPage,
        orders_page: params.ordersPage,
        subusers_page: params.subusersPage,
      },
      signal,
    },
  );
  return body.data;
}

/** Every cached page of one customer: what an action on them invalidates. */
export const customerQueryKey = (id: string) => adminQueryKey("customer", id);

export const customerQueryOptions = (params: CustomerParams) =>
  queryOptions({
    queryKey: [...customerQueryKey(params.id), params.ledgerPage, params.ordersPage, params.subusersPage],
    queryFn: ({ signal }) => getCustomer(params, signal),
    placeholderData: keepPreviousData,
  });

export function useCustomer(params: CustomerParams) {
  return useQuery(customerQueryOptions(params));
}
