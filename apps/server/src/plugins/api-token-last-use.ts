import type { FastifyInstance } from "fastify";

/** How often a token's last_used_at is written at most: a busy token costs one UPDATE a minute. */
const WRITE_EVERY_MS = 60_000;
const REMEMBERED_MAX = 10_000;

/** Records when scoped API tokens were last used (shown on the tokens page), off the request's
 * path and throttled per token; the statement also skips rows written within the minute, so
 * several instances write about once a minute too. */
export function createLastUseRecorder(app: FastifyInstance) {
  const written = new Map<string, number>();
  return {
    touch(tokenId: string): void {
      const now = Date.now();
      if ((written.get(tokenId) ?? 0) > now - WRITE_EVERY_MS) return;
      written.delete(tokenId);
      written.set(tokenId, now);
      if (written.size > REMEMBERED_MAX) written.delete(written.keys().next().value as string);
      app.database
        .query(
          `UPDATE scoped_api_tokens SET last_used_at = now()
            WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
          [tokenId],
        )
        .catch((error: unknown) => app.log.warn({ err: error }, "could not record a token's last use"));
    },
  };
}
