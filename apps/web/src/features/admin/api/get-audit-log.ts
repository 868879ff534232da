import type { AuditPage } from "@bytetoll/contracts";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

export const AUDIT_FILTERS = ["actor", "action", "subject"] as const;

export interface AuditParams extends Record<(typeof AUDIT_FILTERS)[number], string> {
  page: number;
  perPage: number;
}

/** GET /admin/audit: every operator action, newest first; filters are exact. */
export function getAuditLog(params: AuditParams, signal?: AbortSignal): Promise<AuditPage> {
  return apiRequest<AuditPage>("/admin/audit", {
    query: {
      page: params.page,
      per_page: params.perPage,
      actor: params.actor || undefined,
      action: params.action || undefined,
      subject: params.subject || undefined,
    },
    signal,
  });
}

export const auditLogQueryOptions = (params: AuditParams) =>
  queryOptions({
    queryKey: adminQueryKey("audit", params),
    queryFn: ({ signal }) => getAuditLog(params, signal),
    placeholderData: keepPreviousData,
  });

export function useAuditLog(params: AuditParams) {
  return useQuery(auditLogQueryOptions(params));
}
