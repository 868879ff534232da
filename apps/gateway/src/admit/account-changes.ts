import { CHANGES_CHANNEL, type Database } from "@bytetoll/db";
import type { Logger } from "pino";
import type { AccountDirectory } from "./accounts.ts";

/** Migration 0008's trigger announces a change to a user's row (balance, e-mail, disabled_at) as
 * "user:<id>". */
const USER_PREFIX = "user:";
/** Announcements arriving this close together are read back in one query (a usage flush
 * announces every account it debited). */
const COALESCE_MS = 25;
/** After a failed read, the accounts are read again after this long. */
const RETRY_MS = 1_000;

/**
 * Keeps the accounts' disabled flag in step with the database: every "user:<id>" announcement of
 * an account this instance knows is read back (batched, off the request path), so a disabled
 * account is refused and its connections closed within moments on every instance. When the feed
 * comes back after an outage every known account is read again; while it is down the credential
 * cache's expiry reads the flag too. Returns the stop function.
 */
export async function watchAccountChanges(
  database: Database,
  accounts: AccountDirectory,
  logger: Logger,
): Promise<() => Promise<void>> {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let reading: Promise<void> | null = null;
  let stopped = false;

  const schedule = (delayMs: number) => {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = null;
      void read();
    }, delayMs);
    timer.unref();
  };

  async function read(): Promise<void> {
    if (reading) {
      // One read at a time: what arrived meanwhile is read right after.
      await reading;
      if (pending.size > 0) schedule(0);
      return;
    }
    const ids = [...pending];
    pending.clear();
    reading = accounts
      .refreshDisabled(ids)
      .catch((error: unknown) => {
        logger.warn({ err: error }, "could not read changed accounts; retrying");
        for (const id of ids) pending.add(id);
        schedule(RETRY_MS);
      })
      .finally(() => {
        reading = null;
      });
    await reading;
  }

  let wasLive = true;
  const stop = await database.listen(CHANGES_CHANNEL, {
    notification(payload) {
      if (!payload.startsWith(USER_PREFIX)) return;
      const userId = payload.slice(USER_PREFIX.length);
      if (!accounts.known.has(userId)) return;
      pending.add(userId);
      schedule(COALESCE_MS);
    },
    live(isLive) {
      // Changes made while the feed was down were never announced.
      if (isLive && !wasLive) {
        for (const userId of accounts.known.keys()) pending.add(userId);
        schedule(0);
      }
      wasLive = isLive;
    },
  });
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await stop();
    await reading;
  };
}
