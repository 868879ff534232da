import type {
  Order as ContractOrder,
  CreateOrderRequest,
  OrderPage,
  PaymentStatus,
} from "@bytetoll/contracts";

export { NETWORKS, type Network } from "@bytetoll/contracts";
export type { PaymentStatus };

export type PaymentMethod = ContractOrder["method"];

/** Decision 003's order as the page reads it. `payment_status` is widened: docs/product.md#states shows a status
 * the page does not know yet capitalised, so the page tolerates one. */
export type Order = Omit<ContractOrder, "payment_status"> & { payment_status: PaymentStatus | (string & {}) };

/** POST /transactions body; `deal_id` is the decoded `di` as the decimal string the server takes. */
export type CreateTransactionRequest = Omit<CreateOrderRequest, "method"> & { method: PaymentMethod };

/** GET /transactions: one page of history, newest first. */
export type TransactionPage = Omit<OrderPage, "data"> & { data: Order[] };
