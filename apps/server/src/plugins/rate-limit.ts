import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Redis } from "ioredis";
import { AppError } from "../errors.ts";

/** Requests per minute per IP on every route without its own, tighter limit. */
export const GLOBAL_REQUESTS_PER_MINUTE = 600;

/** Per-IP rate limits. With REDIS_URL the counters live in Redis, so they hold across instances. */
async function rateLimitPlugin(app: FastifyInstance) {
  let redis: Redis | undefined;
  if (app.config.REDIS_URL) {
    redis = new Redis(app.config.REDIS_URL, {
      connectTimeout: 1_000,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      lazyConnect: false,
    });
    redis.on("error", (error) => app.log.warn({ err: error }, "rate-limit redis error"));
    app.addHook("onClose", async () => {
      await redis?.quit().catch(() => redis?.disconnect());
    });
  }
  await app.register(rateLimit, {
    global: true,
    max: GLOBAL_REQUESTS_PER_MINUTE,
    timeWindow: 60_000,
    ...(redis ? { redis, nameSpace: "bytetoll-rate-limit:" } : {}),
    // A Redis outage must not take sign-in down; the per-e-mail limit is in the database anyway.
    skipOnError: true,
    errorResponseBuilder: () =>
      new AppError(429, "Too many requests. Please slow down and try again.", "rate_limited"),
  });
}

export default fp(rateLimitPlugin, { name: "rate-limit" });
