import type { AdminMe } from "@bytetoll/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

/** GET /admin/me: who the signed-in operator is; a customer gets 403, and a server without
 * ADMIN_EMAILS or ADMIN_TOKEN answers 404. */
export async function getAdminMe(signal?: AbortSignal): Promise<AdminMe> {
  const body = await apiRequest<ApiSuccess<AdminMe>>("/admin/me", { signal });
  return body.data;
}

/** A refusal (401, 403, 404) means "not an operator", not a failure worth retrying. */
export function isNotOperator(error: unknown): boolean {
  return error instanceof ApiError && [401, 403, 404].includes(error.status);
}

export const adminMeQueryOptions = () =>
  queryOptions({
    queryKey: adminQueryKey("me"),
    queryFn: ({ signal }) => getAdminMe(signal),
    staleTime: 5 * 60 * 1000,
    retry: (failures, error) => !isNotOperator(error) && failures < 2,
  });

export function useAdminMe() {
  return useQuery(adminMeQueryOptions());
}
