import { CREDENTIALS_CHANNEL } from "@bytetoll/gateway";
import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";

export interface CredentialsInvalidation {
  /** Tells every gateway to drop its cached entry for this username. Never throws: the
   * gateway's short cache TTL is the fallback when Redis is unreachable. */
  publish(username: string): Promise<void>;
  close(): Promise<void>;
}

/** Redis publisher for CREDENTIALS_CHANNEL; a no-op without REDIS_URL (the gateway then sees a
 * changed password once its cache entry expires, within seconds). */
export function createCredentialsInvalidation(
  redisUrl: string | undefined,
  log: FastifyBaseLogger,
): CredentialsInvalidation {
  if (!redisUrl) return { publish: async () => {}, close: async () => {} };
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 1_000 });
  redis.on("error", (error) => log.warn({ err: error }, "credentials redis error"));
  return {
    async publish(username) {
      try {
        await redis.publish(CREDENTIALS_CHANNEL, username);
      } catch (error) {
        log.warn({ err: error, username }, "could not publish a credentials change");
      }
    },
    async close() {
      // A client that never connected has nothing to QUIT.
      if (redis.status === "wait") redis.disconnect();
      else await redis.quit().catch(() => redis.disconnect());
    },
  };
}
