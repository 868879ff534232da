import { createAdapter } from "@socket.io/redis-adapter";
import { Redis } from "ioredis";
import { Server } from "socket.io";
import type { Order } from "../modules/orders/schemas.ts";
import { ordersChannel } from "./realtime-channels.ts";

/** For processes without an HTTP server (the admin CLI): publishes through the same Redis
 * adapter, so a customer connected to any server instance sees the change live. */
export function createDetachedPublisher(redisUrl: string) {
  const pub = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const sub = pub.duplicate();
  const io = new Server();
  io.adapter(createAdapter(pub, sub));
  return {
    publishOrder(order: Order) {
      io.to(ordersChannel(order.user_id)).emit("topup-transaction.updated", { topup_transaction: order });
    },
    async close() {
      // No engine to close (never attached to a server); quit() sends what is queued before
      // closing, so a publish just made is not lost.
      await Promise.all([pub.quit(), sub.quit()]);
    },
  };
}
