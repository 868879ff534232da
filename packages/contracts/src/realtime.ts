import type { AccountStatus } from "./account.ts";
import type { Deal } from "./deals.ts";
import type { Order } from "./orders.ts";

/** Socket.IO rooms: `deals` is public; `topup-transactions.{userId}` only for its signed-in owner. */
export const DEALS_CHANNEL = "deals";
export const ORDERS_CHANNEL_PREFIX = "topup-transactions.";
export const ordersChannel = (userId: string) => `${ORDERS_CHANNEL_PREFIX}${userId}`;

/** Every committed change of an order, to its owner's room. */
export const ORDER_UPDATED_EVENT = "topup-transaction.updated";
export interface OrderUpdatedEvent {
  topup_transaction: Order;
}

/** Every change of a deal, to the public room. */
export const DEAL_UPDATED_EVENT = "deal.updated";
export interface DealUpdatedEvent {
  deal: Deal;
}

/** The owner's balance after a change (any debit or credit), at most once a second, to the
 * owner's `topup-transactions.{userId}` room. Same shape as GET /account/status's data. */
export const BALANCE_UPDATED_EVENT = "balance.updated";
export type BalanceUpdatedEvent = AccountStatus;

/** The answer to `subscribe` / `unsubscribe` ({ channel }). */
export type ChannelAck = { ok: true } | { ok: false; message: string };
