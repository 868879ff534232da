import { AppError, driverErrorCode, notFound } from "../../errors.ts";

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

export const PAYMENT_ID_TAKEN =
  "The payment provider answered with a payment that belongs to another order, so no order was made. Please try again.";

/** True when a write failed because the provider's payment id is already another order's: two
 * orders never share one (orders_provider_payment_uq), or a payment would credit the wrong one. */
function isPaymentIdTaken(error: unknown): boolean {
  if (driverErrorCode(error) !== "23505") return false;
  for (let link = error, depth = 0; link && typeof link === "object" && depth < 8; depth++) {
    const { constraint, message, cause } = link as {
      constraint?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (constraint === "orders_provider_payment_uq") return true;
    if (typeof message === "string" && message.includes("orders_provider_payment_uq")) return true;
    link = cause;
  }
  return false;
}

/** Runs a write that records a provider's payment id; a provider reusing one of another order
 * answers 409 with a message instead of a database error. */
export async function withOwnPaymentId<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isPaymentIdTaken(error)) throw new AppError(409, PAYMENT_ID_TAKEN, "payment_id_taken");
    throw error;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Order ids are UUIDs: anything else names no order and is never sent to the database. */
export const isOrderId = (id: string) => UUID.test(id);
