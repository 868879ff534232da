import { SOLD_OUT_LIST_PRICE_NOTE } from "@bytetoll/contracts";
import type { Order } from "../api/order.ts";

/** What an order was for: a group-buy deposit (a deal order without a quantity), a flash-sale
 * purchase, an automatic top-up of the saved card, or a plain data purchase. */
export function orderKind(
  order: Pick<Order, "deal_id" | "quantity" | "origin">,
): "Deposit" | "Flash sale" | "Auto top-up" | "Purchase" {
  if (order.origin === "auto_topup") return "Auto top-up";
  if (order.deal_id === null) return "Purchase";
  return order.quantity === null ? "Deposit" : "Flash sale";
}

/** A flash-sale order paid after its stock went to other buyers: the server credited it at the
 * list price and its note says so (the sale is never oversold). */
export function soldOutAtListPrice(order: Pick<Order, "payment_status" | "note">): string | null {
  return order.payment_status === "paid" && order.note?.startsWith(SOLD_OUT_LIST_PRICE_NOTE)
    ? order.note
    : null;
}
