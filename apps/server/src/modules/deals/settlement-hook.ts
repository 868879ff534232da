import type { OrderRow, Tx } from "./repository.ts";

// The deals side of the settlement: what deals answer about a payment, and what they may do to
// its order (through the orders module).

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

/** What a deal did with an order's payment reading, inside the settlement's transaction:
 * `hold` — the deal took the money (a group-buy deposit held, credited or refunded) and `order` is
 * the order as changed; `skip` — the deal's money, but nothing changed (a replay, a part payment
 * of a deposit); `credit` — not the deal's to settle: the settlement treats it as any order. */
export type DealOutcome = { kind: "hold"; order: OrderRow } | { kind: "skip" } | { kind: "credit" };

export const CREDIT: DealOutcome = { kind: "credit" };
export const SKIP: DealOutcome = { kind: "skip" };
export const held = (order: OrderRow | null | undefined): DealOutcome =>
  order === undefined ? CREDIT : order === null ? SKIP : { kind: "hold", order };

/** What an order's payment reading says, as far as deals care. */
export interface DealPaymentReading {
  status: string;
  payinHash?: string | null | undefined;
  /** For refunds: the share refunded so far; absent means all of it. */
  refunded?: { amount: number; of: number } | undefined;
}
