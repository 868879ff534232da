import type { AdminCustomersPage } from "@bytetoll/contracts";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

export interface CustomersParams {
  page: number;
  perPage: number;
  email: string;
}

/** GET /admin/customers: accounts newest first, `email` a substring of the address. */
export function getCustomers(params: CustomersParams, signal?: AbortSignal): Promise<AdminCustomersPage> {
  return apiRequest<AdminCustomersPage>("/admin/customers", {
    query: { page: params.page, per_page: params.perPage, email: params.email || undefined },
    signal,
  });
}

export const customersQueryOptions = (params: CustomersParams) =>
  queryOptions({
    queryKey: adminQueryKey("customers", params),
    queryFn: ({ signal }) => getCustomers(params, signal),
    // The next page or search keeps the current rows on screen until its own arrive.
    placeholderData: keepPreviousData,
  });

export function useCustomers(params: CustomersParams) {
  return useQuery(customersQueryOptions(params));
}
