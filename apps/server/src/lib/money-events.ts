import type { Deal, Order } from "@bytetoll/contracts";

/**
 * THE publisher of money changes: every changed order and deal leaves the process through one
 * of these two calls, and only once the change has committed — callers call it after their
 * transaction has resolved, or queue it with `afterCommit(tx, …)` from inside one
 * (@bytetoll/db). The server's sends to the pages (realtime) and, for orders, to the account's
 * webhooks; the admin CLI's sends to the pages through Redis.
 */
export interface MoneyEvents {
  /** `topup-transaction.updated` to the owner's pages; order.paid / order.refunded webhooks. */
  order(order: Order): void;
  /** `deal.updated` to every page. */
  deal(deal: Deal): void;
}
