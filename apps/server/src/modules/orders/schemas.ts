import { errorResponse } from "@bytetoll/contracts";
import { z } from "zod";

export {
  type ChoosePaymentRequest,
  type CreateOrderRequest,
  choosePaymentRequest,
  createOrderRequest,
  type HistoryEntry,
  type HistoryPage,
  type HistoryQuery,
  historyPage,
  historyQuery,
  type LedgerHistoryEntry,
  type ListOrdersQuery,
  listOrdersQuery,
  MAX_ORDER_USD,
  MIN_ORDER_USD,
  NETWORKS,
  type Network,
  type Order,
  type OrderPage,
  order,
  orderPage,
  orderResponse,
  PAYMENT_STATUSES,
  PAYMENT_TOKENS,
  type PaymentStatus,
  type Receipt,
  receiptResponse,
} from "@bytetoll/contracts";

export const orderIdParams = z.object({ orderId: z.string().max(64) });

export const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 429: errorResponse };

/** What a request naming an order that cannot take it (paid, expired…) can also get. */
export const conflictErrors = { ...errors, 409: errorResponse };
