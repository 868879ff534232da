import type { Order } from "../api/order.ts";

/** What an order was for: a group-buy deposit (a deal order without a quantity), a flash-sale
 * purchase, or a plain data purchase. */
export function orderKind(order: Pick<Order, "deal_id" | "quantity">): "Deposit" | "Flash sale" | "Purchase" {
  if (order.deal_id === null) return "Purchase";
  return order.quantity === null ? "Deposit" : "Flash sale";
}
