import type { AdminOrderResponse } from "@bytetoll/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { adminQueryKey } from "./admin-query-keys.ts";
import { orderQueryKey } from "./get-order.ts";

export type OrderAction = "mark-paid" | "expire";

/** POST /admin/orders/{id}/mark-paid (sandbox orders) or /expire (waiting orders). */
export function actOnOrder(id: string, action: OrderAction) {
  return apiRequest<AdminOrderResponse>(`/admin/orders/${encodeURIComponent(id)}/${action}`, {
    method: "POST",
    json: {},
  });
}

export function useOrderAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: OrderAction) => actOnOrder(id, action),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: orderQueryKey(id) }),
        queryClient.invalidateQueries({ queryKey: adminQueryKey("orders") }),
        queryClient.invalidateQueries({ queryKey: adminQueryKey("customer") }),
      ]);
    },
  });
}
