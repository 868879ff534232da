/**
 * What other modules use of orders, and all that payments may: the order row and its one JSON
 * view, the repository the settlement marks orders paid through, the order-change publisher, and
 * the errors that name a missing order. Money flows one way — providers → payments/settlement.ts
 * → the ledger writers in @bytetoll/db — and orders imports nothing of payments: checkout opens
 * payments through lib/payment-provider.ts.
 */
export { isOrderId, ORDER_NOT_FOUND, orderNotFound } from "./order-errors.ts";
export { type OrderRow, orderPublisher, toOrderView } from "./order-view.ts";
export { publishOrderChange } from "./plugin.ts";
export { createOrdersRepository, type Tx } from "./repository.ts";
export { errors, type Order } from "./schemas.ts";
export type { OrdersService } from "./service.ts";
