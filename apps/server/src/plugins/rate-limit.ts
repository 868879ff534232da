import { createRequire } from "node:module";
import rateLimit, {
  type FastifyRateLimitOptions,
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { Redis } from "ioredis";
import { AppError } from "../errors.ts";
import { closeRedis, readyOrAfter, reportRedisOutages } from "../lib/redis-outage.ts";

/** RATE_LIMIT_PER_MINUTE's default. */
export { DEFAULT_RATE_LIMIT_PER_MINUTE as GLOBAL_REQUESTS_PER_MINUTE } from "../config.ts";

type Counter = FastifyRateLimitStore;
type CounterCtor = new (
  continueExceeding?: boolean,
  exponentialBackoff?: boolean,
  ...rest: unknown[]
) => Counter;

// The plugin's own stores (it exports only their interface): in memory, and in Redis.
const require = createRequire(import.meta.url);
const LocalStore = require("@fastify/rate-limit/store/LocalStore.js") as CounterCtor;
const RedisStore = require("@fastify/rate-limit/store/RedisStore.js") as CounterCtor;

/** Counts in Redis (shared by every instance) while it answers, in this process's memory while
 * it does not: limits stay on during an outage, per instance, and go back to shared by themselves. */
class RedisOrLocalStore implements Counter {
  constructor(
    private readonly redis: Redis,
    private readonly shared: Counter,
    private readonly local: Counter,
  ) {}

  incr(...[key, callback, timeWindow, max]: Parameters<Counter["incr"]>) {
    if (this.redis.status !== "ready") return this.local.incr(key, callback, timeWindow, max);
    this.shared.incr(
      key,
      (error, result) => (error ? this.local.incr(key, callback, timeWindow, max) : callback(null, result)),
      timeWindow,
      max,
    );
  }

  child(routeOptions: Parameters<Counter["child"]>[0]) {
    return new RedisOrLocalStore(this.redis, this.shared.child(routeOptions), this.local.child(routeOptions));
  }
}

function redisOrLocalStore(redis: Redis, nameSpace: string): FastifyRateLimitStoreCtor {
  return class extends RedisOrLocalStore {
    constructor(
      options: FastifyRateLimitOptions & { continueExceeding?: boolean; exponentialBackoff?: boolean },
    ) {
      const { continueExceeding, exponentialBackoff } = options;
      super(
        redis,
        new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace),
        new LocalStore(continueExceeding, exponentialBackoff),
      );
    }
  };
}

/** The static hosting of the built dashboard (its catch-all file route). */
function isStaticFile(request: FastifyRequest): boolean {
  return (request.method === "GET" || request.method === "HEAD") && request.routeOptions.url === "/*";
}

/** Rate limits per user (signed in) or per IP. With REDIS_URL the counters live in Redis, so they hold across instances. */
async function rateLimitPlugin(app: FastifyInstance) {
  let store: FastifyRateLimitStoreCtor | undefined;
  if (app.config.REDIS_URL) {
    // No queue and a short deadline: a request never waits on an absent Redis.
    const redis = new Redis(app.config.REDIS_URL, {
      connectTimeout: 1_000,
      commandTimeout: 1_000,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    const outages = reportRedisOutages([redis], app.log, "rate limiting", "counts per instance");
    // Requests before the connection is up would count per instance.
    await readyOrAfter(redis, 2_000);
    store = redisOrLocalStore(redis, "bytetoll-rate-limit:");
    app.addHook("onClose", async () => {
      outages.stop();
      await closeRedis(redis);
    });
  }
  await app.register(rateLimit, {
    global: true,
    max: app.config.RATE_LIMIT_PER_MINUTE,
    timeWindow: 60_000,
    // Customers behind one address (an office, a proxy) must not lock each other out: a signed-in
    // call counts against its user, an anonymous one against its address. A token that does not
    // verify counts against the address, so made-up tokens open no fresh budget.
    keyGenerator: async (request) => {
      const user = await app.identify(request).catch(() => null);
      return user ? `user:${user.id}` : request.ip;
    },
    // The dashboard's own files are not API calls: a reload never meets a JSON 429.
    allowList: (request) => isStaticFile(request),
    ...(store ? { store } : {}),
    errorResponseBuilder: () =>
      new AppError(429, "Too many requests. Please slow down and try again.", "rate_limited"),
  });
}

export default fp(rateLimitPlugin, { name: "rate-limit" });
