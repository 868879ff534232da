import { randomUUID } from "node:crypto";
import type { OrderPage } from "@bytetoll/contracts";
import { CHANGES_CHANNEL, type ChangeKind, parseChange } from "@bytetoll/db";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { ChangeCache } from "../lib/change-cache.ts";
import type { AuthUser } from "../types.ts";

/** GET /account/status's answer, kept whole so it is serialised once per balance. */
export interface AccountStatus {
  success: true;
  data: { balance_gb: number; balance_bytes: number };
}

/** A live session of the auth plugin: who, and until when (epoch ms). */
export interface CachedSession {
  user: AuthUser;
  expiresAt: number;
}

/** The reads every dashboard page makes, cached per instance (decision 006). */
export interface Caches {
  /** Group `session:<userId>`, key session id; null = revoked, expired or unknown. */
  sessions: ChangeCache<CachedSession | null>;
  /** Group and key `api_token:<hash>`; only tokens that exist are kept. */
  apiTokens: ChangeCache<AuthUser | null>;
  /** Group and key `user:<userId>`: the GET /account/status answer. */
  balances: ChangeCache<AccountStatus>;
  /** Group `orders:<userId>`, key per page query: GET /transactions pages. */
  orderPages: ChangeCache<OrderPage>;
}

export interface ChangeFeed {
  caches: Caches;
  /** Resolves once every change committed before the call has reached this instance's caches
   * (or after a second, or at once while the feed is down and the caches are off). */
  sync(): Promise<void>;
  /** Calls `listener` with each change's payload once the caches have dropped what it made
   * stale, and with null when the feed is back after an outage (changes may have been missed). */
  onChange(listener: (payload: string | null) => void): void;
}

declare module "fastify" {
  interface FastifyInstance {
    changeFeed: ChangeFeed;
  }
}

const SYNC_TIMEOUT_MS = 1_000;
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Listens to the database's change feed (migration 0008: triggers NOTIFY at commit, whoever
 * writes) and drops what each change makes stale. Before answering a request that may have
 * written, the instance waits for its own writes to come back through the feed, so the client's
 * next read here sees them (read-your-writes); other instances see them a moment later.
 */
async function changeFeedPlugin(app: FastifyInstance) {
  const caches: Caches = {
    sessions: new ChangeCache({ maxEntries: 20_000, ttlMs: 60_000 }),
    apiTokens: new ChangeCache({ maxEntries: 10_000, ttlMs: 60_000 }),
    balances: new ChangeCache({ maxEntries: 20_000, ttlMs: 30_000 }),
    // Pages carry QR codes (a few kB per order): fewer of them.
    orderPages: new ChangeCache({ maxEntries: 1_000, ttlMs: 30_000 }),
  };
  const byKind: Record<ChangeKind, ChangeCache<unknown>> = {
    user: caches.balances,
    session: caches.sessions,
    api_token: caches.apiTokens,
    orders: caches.orderPages,
  };
  const instance = randomUUID();
  const syncPrefix = `sync:${instance}:`;
  const waiting = new Map<string, () => void>();
  let nextSync = 0;
  let live = false;
  const listeners: Array<(payload: string | null) => void> = [];

  const stop = await app.database.listen(CHANGES_CHANNEL, {
    notification(payload) {
      if (payload.startsWith(syncPrefix)) {
        waiting.get(payload)?.();
        return;
      }
      const change = parseChange(payload);
      if (!change) return;
      byKind[change.kind].invalidate(payload);
      for (const listener of listeners) listener(payload);
    },
    live(isLive) {
      if (isLive && !live) for (const listener of listeners) listener(null);
      live = isLive;
      for (const cache of Object.values(caches)) cache.setLive(isLive);
      if (!isLive) {
        app.log.warn("change feed lost its database connection: caches are off until it is back");
        for (const release of waiting.values()) release();
      }
    },
  });
  app.addHook("onClose", async () => {
    await stop();
    for (const release of waiting.values()) release();
  });

  // Calls made in the same turn (an expiry sweep publishing many orders, concurrent writes)
  // share one round trip: it is sent after all of them were made, so it covers them all.
  let pending: Promise<void> | null = null;
  function sync(): Promise<void> {
    pending ??= Promise.resolve().then(() => {
      pending = null;
      return roundTrip();
    });
    return pending;
  }

  async function roundTrip(): Promise<void> {
    if (!live) return;
    const payload = `${syncPrefix}${nextSync++}`;
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<void>((resolve) => {
      waiting.set(payload, resolve);
      timer = setTimeout(resolve, SYNC_TIMEOUT_MS);
    });
    try {
      // Notifications reach a listener in commit order: once this one is back, so is every
      // change committed before it.
      await app.database.query("SELECT pg_notify($1, $2)", [CHANGES_CHANNEL, payload]);
      await arrived;
    } catch (error) {
      app.log.warn({ err: error }, "change feed sync failed");
    } finally {
      clearTimeout(timer);
      waiting.delete(payload);
    }
  }

  app.decorate("changeFeed", { caches, sync, onChange: (listener) => listeners.push(listener) });

  app.addHook("onSend", (request, _reply, payload, done) => {
    if (!WRITE_METHODS.has(request.method)) return done(null, payload);
    void sync().then(() => done(null, payload));
  });
}

export default fp(changeFeedPlugin, { name: "change-feed" });
