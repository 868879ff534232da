import { z } from "zod";
import { accountStatusSchema } from "./account.ts";
import { deal } from "./deals.ts";
import { order } from "./orders.ts";

// Each event's payload is one schema: the server sends what it infers, the pages parse what they
// hear with it (a payload that does not parse is ignored, never half-applied).

/** Socket.IO rooms: `deals` is public; `topup-transactions.{userId}` only for its signed-in owner. */
export const DEALS_CHANNEL = "deals";
export const ORDERS_CHANNEL_PREFIX = "topup-transactions.";
export const ordersChannel = (userId: string) => `${ORDERS_CHANNEL_PREFIX}${userId}`;

/** Every committed change of an order, to its owner's room. */
export const ORDER_UPDATED_EVENT = "topup-transaction.updated";
export const orderUpdatedEvent = z.object({ topup_transaction: order });
export type OrderUpdatedEvent = z.infer<typeof orderUpdatedEvent>;

/** Every change of a deal, to the public room. */
export const DEAL_UPDATED_EVENT = "deal.updated";
export const dealUpdatedEvent = z.object({ deal });
export type DealUpdatedEvent = z.infer<typeof dealUpdatedEvent>;

/** The owner's balance after a change (any debit or credit), at most once a second, to the
 * owner's `topup-transactions.{userId}` room. Same shape as GET /account/status's data. */
export const BALANCE_UPDATED_EVENT = "balance.updated";
export const balanceUpdatedEvent = accountStatusSchema;
export type BalanceUpdatedEvent = z.infer<typeof balanceUpdatedEvent>;

/** The answer to `subscribe` / `unsubscribe` ({ channel }). */
export type ChannelAck = { ok: true } | { ok: false; message: string };
