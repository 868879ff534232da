import type { DealsService } from "../deals/index.ts";
import type { OrderExpiry } from "./expiry.ts";
import { notCancellable } from "./order-errors.ts";
import type { OrderReads } from "./order-reads.ts";
import { asOrderStatus, publicStatus } from "./order-status.ts";
import { isOverdue, type OrderRow } from "./order-view.ts";
import type { OrdersRepository } from "./repository.ts";
import type { Order } from "./schemas.ts";

interface Deps {
  repository: Pick<OrdersRepository, "cancelOpen" | "find" | "lock" | "transaction">;
  reads: Pick<OrderReads, "owned">;
  expiry: Pick<OrderExpiry, "expireRead">;
  publishOrder: (row: OrderRow) => Order;
  /** A flash-sale order's reserved stock goes back on sale. */
  deals?: Pick<DealsService, "releaseStock">;
}

/**
 * POST /transactions/{orderId}/cancel: the owner calls off an order that is still waiting for its
 * payment. One conditional UPDATE decides against a payment being credited at the same moment
 * (both take the row lock): the order ends either paid and credited, or cancelled and not. A
 * payment that still arrives after the cancel is credited, as after expiry (docs/product.md#order-statuses);
 * one being credited as the cancel lands is waited for, and the cancel then answers 409 with
 * what the order is now.
 */
export function createCancelOrder({ repository, reads, expiry, publishOrder, deals }: Deps) {
  return {
    async cancel(userId: string, orderId: string): Promise<Order> {
      const row = await reads.owned(userId, orderId);
      const cancelled = await repository.cancelOpen(row.id);
      if (cancelled) {
        if (cancelled.dealId) await deals?.releaseStock();
        // A payment being credited right now holds the row lock: waiting for it means the answer is
        // the order's final state, never "cancelled" for an order that ends paid a moment later.
        const settled = await repository.transaction((tx) => repository.lock(tx, row.id));
        if (!settled || settled.paymentStatus === "cancelled") return publishOrder(settled ?? cancelled);
      }
      const current = (await repository.find(row.id)) ?? row;
      const status = isOverdue(current)
        ? (await expiry.expireRead(current)).payment_status
        : publicStatus(asOrderStatus(current.paymentStatus));
      throw notCancellable(status);
    },
  };
}
