import type { Database } from "@bytetoll/db";
import type { DealsService } from "../deals/index.ts";
import { type OrderRow, toOrderView } from "./order-view.ts";
import type { OrdersRepository } from "./repository.ts";
import type { Order } from "./schemas.ts";

interface Deps {
  database: Database;
  repository: OrdersRepository;
  publishOrder: (row: OrderRow) => Order;
  deals?: Pick<DealsService, "releaseStock">;
}

/** Unpaid orders turn `expired` when their time is up: on the interval sweep, and when a read
 * shows one that is overdue (so a page never shows a waiting order that can no longer be paid). */
export function createOrderExpiry({ database, repository, publishOrder, deals }: Deps) {
  return {
    /** Expires the user's overdue orders; true when any changed. */
    async expireForUser(userId: string): Promise<boolean> {
      return (await repository.expireDue(userId)).map(publishOrder).length > 0;
    },

    /** An overdue order just read: expired now, or as it stands if it changed meanwhile. */
    async expireRead(row: OrderRow): Promise<Order> {
      const expired = await repository.closeOpen(database.db, row.id, "expired");
      if (expired) return publishOrder(expired);
      return toOrderView((await repository.find(row.id)) ?? row);
    },

    /** Expires every waiting order past its time (the interval timer; safe on many instances). */
    async expireDue(): Promise<number> {
      const expired = (await repository.expireDue()).map(publishOrder).length;
      if (expired > 0) await deals?.releaseStock();
      return expired;
    },
  };
}

export type OrderExpiry = ReturnType<typeof createOrderExpiry>;
