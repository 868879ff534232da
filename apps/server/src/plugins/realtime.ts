import {
  BALANCE_UPDATED_EVENT,
  type BalanceUpdatedEvent,
  type ChannelAck,
  DEAL_UPDATED_EVENT,
  DEALS_CHANNEL,
  ORDER_UPDATED_EVENT,
  ORDERS_CHANNEL_PREFIX,
  ordersChannel,
  scopesAllow,
} from "@bytetoll/contracts";
import { createAdapter } from "@socket.io/redis-adapter";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { Redis } from "ioredis";
import { Server, type Socket } from "socket.io";
import {
  closeRedis,
  reportRedisOutages,
  withFailedPublishesDropped,
  withResubscribesHandled,
} from "../lib/redis-outage.ts";
import type { Order } from "../modules/orders/index.ts";
import type { AuthUser } from "../types.ts";
import { parseChannel } from "./realtime-channels.ts";
import { createSocketRevocation } from "./realtime-revocation.ts";

export interface Realtime {
  io: Server;
  /** `topup-transaction.updated` to the owner's room, on this and (with Redis) every instance. */
  publishOrder(order: Order): void;
  /** `deal.updated` to the public `deals` room. */
  publishDeal(deal: Record<string, unknown>): void;
  /** Whether a socket on this instance is in the user's room. */
  hasLocalListeners(userId: string): boolean;
  /** Users with a socket in their room on this instance. */
  localListeners(): string[];
  /** `balance.updated` to the user's sockets on this instance only: every instance hears each
   * balance change on the change feed and tells its own sockets, so nothing is sent twice. */
  publishBalanceLocally(userId: string, balance: BalanceUpdatedEvent): void;
}

declare module "fastify" {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

interface SocketData {
  user: AuthUser | null;
}

/** Runs the app's one bearer check (plugins/auth.ts) on the handshake token. That check reads
 * only the Authorization header, so a minimal request object is all it needs. A socket hears
 * the account's orders, which every role may read, and a scoped token only with account:read. */
async function userForToken(app: FastifyInstance, token: string): Promise<AuthUser | null> {
  const probe = { headers: { authorization: `Bearer ${token}` } };
  try {
    const user = await app.identify(probe as unknown as FastifyRequest);
    return user && !user.disabled && scopesAllow(user.scopes, "account:read") ? user : null;
  } catch {
    return null;
  }
}

function ackWith(ack: unknown, reply: ChannelAck) {
  if (typeof ack === "function") ack(reply);
}

/** Socket.IO on the Fastify server (decision 003): rooms `deals` and `topup-transactions.{userId}`. */
async function realtimePlugin(app: FastifyInstance) {
  const io = new Server(app.server, {
    path: "/socket.io",
    serveClient: false,
    cors: { origin: [new URL(app.config.APP_URL).origin], credentials: false },
  });

  let redis: Redis[] = [];
  let outages: { stop(): void } | undefined;
  if (app.config.REDIS_URL) {
    // While Redis is away a publish fails at once (no queue of stale updates) and delivery stays
    // local; the subscriber waits for Redis however long it takes and resubscribes when it returns.
    const pub = withFailedPublishesDropped(
      new Redis(app.config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }),
    );
    const sub = withResubscribesHandled(new Redis(app.config.REDIS_URL, { maxRetriesPerRequest: null }));
    redis = [pub, sub];
    outages = reportRedisOutages(redis, app.log, "realtime fan-out", "reaches only this instance's clients");
    io.adapter(createAdapter(pub, sub));
  }

  io.use((socket, next) => {
    const token: unknown = socket.handshake.auth?.token;
    if (token === undefined || token === null || token === "") {
      (socket.data as SocketData).user = null;
      return next();
    }
    if (typeof token !== "string") return next(new Error("Unauthorized"));
    userForToken(app, token).then(
      (user) => {
        if (!user) return next(new Error("Unauthorized"));
        (socket.data as SocketData).user = user;
        next();
      },
      () => next(new Error("Unauthorized")),
    );
  });

  // A revoked session's (or replaced API token's) sockets are closed within moments, here and on
  // every other instance: each hears the change through the database's change feed.
  const revocation = createSocketRevocation(app, (token) => userForToken(app, token));
  io.on("connection", (socket: Socket) => {
    const user = (socket.data as SocketData).user;
    if (user) revocation.track(socket, user, socket.handshake.auth.token as string);
    socket.on("subscribe", async (payload: unknown, ack: unknown) => {
      const channel = parseChannel(payload, user);
      if (!channel.ok) return ackWith(ack, channel);
      await socket.join(channel.room);
      ackWith(ack, { ok: true });
    });
    socket.on("unsubscribe", async (payload: unknown, ack: unknown) => {
      const channel = parseChannel(payload, user);
      if (!channel.ok) return ackWith(ack, channel);
      await socket.leave(channel.room);
      ackWith(ack, { ok: true });
    });
  });

  app.decorate("realtime", {
    io,
    publishOrder(order: Order) {
      io.to(ordersChannel(order.user_id)).emit(ORDER_UPDATED_EVENT, { topup_transaction: order });
    },
    publishDeal(deal: Record<string, unknown>) {
      io.to(DEALS_CHANNEL).emit(DEAL_UPDATED_EVENT, { deal });
    },
    hasLocalListeners(userId: string) {
      return (io.of("/").adapter.rooms.get(ordersChannel(userId))?.size ?? 0) > 0;
    },
    localListeners() {
      const rooms = [...io.of("/").adapter.rooms.keys()];
      return rooms
        .filter((room) => room.startsWith(ORDERS_CHANNEL_PREFIX))
        .map((room) => room.slice(ORDERS_CHANNEL_PREFIX.length));
    },
    publishBalanceLocally(userId: string, balance: BalanceUpdatedEvent) {
      io.local.to(ordersChannel(userId)).emit(BALANCE_UPDATED_EVENT, balance);
    },
  });

  // Open sockets would keep the HTTP server from closing: drop them before Fastify closes it.
  app.addHook("preClose", async () => {
    io.local.disconnectSockets(true);
    io.engine.close();
  });
  app.addHook("onClose", async () => {
    outages?.stop();
    await Promise.all(redis.map(closeRedis));
  });
}

export default fp(realtimePlugin, { name: "realtime", dependencies: ["auth"] });
