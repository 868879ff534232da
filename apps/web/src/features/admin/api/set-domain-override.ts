import type { AdminDomain, DomainOverride } from "@bytetoll/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";

/** PUT /admin/intelligence/domains/{domain}/override: force datacenter or premium, or null to
 * leave the domain to its verdict. */
export function setDomainOverride(domain: string, override: DomainOverride | null) {
  return apiRequest<ApiSuccess<AdminDomain>>(
    `/admin/intelligence/domains/${encodeURIComponent(domain)}/override`,
    { method: "PUT", json: { override } },
  );
}

export function useSetDomainOverride() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { domain: string; override: DomainOverride | null }) =>
      setDomainOverride(input.domain, input.override),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminQueryKey("domains") }),
        queryClient.invalidateQueries({ queryKey: adminQueryKey("audit") }),
      ]);
    },
  });
}
