import type { CustomerAction, CustomerActionResponse, CustomerCreditRequest } from "@bytetoll/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";
import { customerQueryKey } from "./get-customer.ts";

/** The part of creditResponse the page shows: what the server says it did. */
interface CreditAnswer {
  message: string;
}

/** POST /admin/customers/{id}/credit (negative gb debits). The Idempotency-Key is made once per
 * dialog opening, so a retried click never credits twice. */
export function creditCustomer(id: string, body: CustomerCreditRequest, idempotencyKey: string) {
  return apiRequest<CreditAnswer>(`/admin/customers/${encodeURIComponent(id)}/credit`, {
    method: "POST",
    json: body,
    headers: { "Idempotency-Key": idempotencyKey },
  });
}

/** POST /admin/customers/{id}/{action}, with the note the audit log keeps. */
export function actOnCustomer(id: string, action: CustomerAction, note: string) {
  return apiRequest<CustomerActionResponse>(`/admin/customers/${encodeURIComponent(id)}/${action}`, {
    method: "POST",
    json: note.trim() ? { note: note.trim() } : {},
  });
}

function useRefreshCustomer(id: string) {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: customerQueryKey(id) }),
      queryClient.invalidateQueries({ queryKey: adminQueryKey("customers") }),
      queryClient.invalidateQueries({ queryKey: adminQueryKey("audit") }),
    ]);
  };
}

export function useCreditCustomer(id: string) {
  const refresh = useRefreshCustomer(id);
  return useMutation({
    mutationFn: (input: { body: CustomerCreditRequest; idempotencyKey: string }) =>
      creditCustomer(id, input.body, input.idempotencyKey),
    onSuccess: refresh,
  });
}

export function useCustomerAction(id: string) {
  const refresh = useRefreshCustomer(id);
  return useMutation({
    mutationFn: (input: { action: CustomerAction; note: string }) =>
      actOnCustomer(id, input.action, input.note),
    onSuccess: refresh,
  });
}
