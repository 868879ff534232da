/**
 * What other modules use of orders, and all that payments may: the order row and its one JSON
 * view, the repository the settlement marks orders paid through (its status writes are THE
 * table of allowed moves, order-status.ts), and the errors that name a missing order. Money flows
 * one way — providers → payments/settlement.ts → the ledger writers in @bytetoll/db — and orders
 * imports nothing of payments: checkout opens payments through lib/payment-provider.ts. Order
 * changes are sent by the app's one money-event publisher (lib/money-events.ts). The operator
 * console reads orders through operator-reads.ts.
 */

export { documentNumber, type IssuerDetails, issuerOf } from "./invoice-numbers.ts";
export {
  accountOrdersPage,
  orderOwnerEmails,
  ordersForOperator,
  orderWithEmail,
  revenueByDay,
} from "./operator-reads.ts";
export { isOrderId, ORDER_NOT_FOUND, orderNotFound } from "./order-errors.ts";
export {
  ENDED_UNPAID_STATUSES,
  OPEN_STATUSES,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  type OrderStatus,
  publicStatus,
  statusList,
  storedStatuses,
} from "./order-status.ts";
export { type OrderRow, orderPublisher, toOrderView } from "./order-view.ts";
export { createOrdersRepository, type OrdersRepository, type Tx } from "./repository.ts";
export { errors, type Order } from "./schemas.ts";
export type { OrdersService } from "./service.ts";
