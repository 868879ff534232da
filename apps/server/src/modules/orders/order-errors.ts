import { AppError, notFound } from "../../errors.ts";

export const ORDER_NOT_FOUND = "Order not found";
export const CARD_UNAVAILABLE = "Card payments are not available.";
export const PAYMENT_ALREADY_CHOSEN = "This order already has a payment method.";
export const ORDER_CLOSED = "This order can no longer be paid.";

export const RECEIPT_UNAVAILABLE = "Only a paid order has a receipt.";

const STATUS_WORDS: Record<string, string> = { partially_paid: "partly paid" };

export const orderNotFound = () => notFound(ORDER_NOT_FOUND);
/** 409 for cancelling an order that is no longer waiting, naming what it is now. */
export const notCancellable = (status: string) =>
  new AppError(
    409,
    `Only an unpaid order can be cancelled: this one is ${STATUS_WORDS[status] ?? status}.`,
    "order_not_waiting",
  );
export const receiptUnavailable = () => new AppError(409, RECEIPT_UNAVAILABLE, "order_not_paid");
export const orderClosed = () => new AppError(409, ORDER_CLOSED, "order_closed");
export const paymentAlreadyChosen = () => new AppError(409, PAYMENT_ALREADY_CHOSEN, "payment_chosen");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Order ids are UUIDs: anything else names no order and is never sent to the database. */
export const isOrderId = (id: string) => UUID.test(id);
