import {
  DEAL_UPDATED_EVENT,
  DEALS_CHANNEL,
  type Deal,
  type DealUpdatedEvent,
  ORDER_UPDATED_EVENT,
  type OrderUpdatedEvent,
  ordersChannel,
} from "@bytetoll/contracts";
import { createAdapter } from "@socket.io/redis-adapter";
import { Redis } from "ioredis";
import { Server } from "socket.io";
import type { MoneyEvents } from "../lib/money-events.ts";
import { closeRedis, withFailedPublishesDropped, withResubscribesHandled } from "../lib/redis-outage.ts";
import type { Order } from "../modules/orders/index.ts";

/** For processes without an HTTP server (the admin CLI): the money-event publisher, sending
 * through the same Redis adapter, so a customer connected to any server instance sees the change
 * live. */
export function createDetachedPublisher(redisUrl: string): MoneyEvents & { close(): Promise<void> } {
  const pub = withFailedPublishesDropped(new Redis(redisUrl, { maxRetriesPerRequest: 2 }));
  const sub = withResubscribesHandled(pub.duplicate());
  // An 'error' without a listener would crash the process; the order change itself is already
  // committed, so a lost live update is worth a warning, not a crash. Closing ends commands the
  // adapter still had queued (its subscriptions): nothing to report then.
  let closing = false;
  for (const client of [pub, sub]) {
    client.on("error", (error: Error) => {
      if (!closing) process.stderr.write(`realtime: Redis error: ${error.message}\n`);
    });
  }
  const io = new Server();
  io.adapter(createAdapter(pub, sub));
  return {
    order(order: Order) {
      const event: OrderUpdatedEvent = { topup_transaction: order };
      io.to(ordersChannel(order.user_id)).emit(ORDER_UPDATED_EVENT, event);
    },
    deal(deal: Deal) {
      const event: DealUpdatedEvent = { deal };
      io.to(DEALS_CHANNEL).emit(DEAL_UPDATED_EVENT, event);
    },
    async close() {
      closing = true;
      // No engine to close (never attached to a server). Connected, quit() sends what is queued
      // before closing, so a publish just made is not lost; with Redis away there is nothing to
      // wait for, and the command's own change is already committed.
      await Promise.all([pub, sub].map(closeRedis));
    },
  };
}
