import type { OrderRow, Tx } from "./repository.ts";

/** What deals may do to an order inside the settlement's transaction. The orders module
 * implements it (its table of status moves decides what is allowed); deals never write orders
 * themselves and import nothing of orders. */
export interface DealOrderWrites {
  /** A deposit order is paid (held by its deal, not credited); undefined when it was already. */
  markDepositPaid(tx: Tx, orderId: string, payinHash: string | null): Promise<OrderRow | undefined>;
  /** All of a deposit's money went back: paid → refunded. */
  markDepositRefunded(tx: Tx, orderId: string): Promise<OrderRow | undefined>;
  /** A flash-sale order whose stock is gone buys `bytes` at the list price, as its note says. */
  priceAtList(tx: Tx, orderId: string, bytes: number, note: string): Promise<void>;
}
