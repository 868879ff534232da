import { CHANGES_CHANNEL, type Database } from "@bytetoll/db";
import type { Logger } from "pino";

/** After a failed read, the table is read again after this long (unless `retryMs` says). */
const RETRY_MS = 2_000;

/**
 * A table an instance holds in memory and keeps in step with the database: read at start, again
 * whenever the change feed announces a change to it (within moments on every instance), when the
 * feed comes back after an outage, and — with `everyMs` — that often besides. A change announced
 * while a read runs is read again after it; a failed read is logged and tried again after
 * `retryMs`, the last good copy staying in use meanwhile. Never read per request.
 */
export class FeedTable {
  private loading: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopFeed: (() => Promise<void>) | null = null;
  private stopped = false;

  constructor(
    private readonly options: {
      database: Database;
      logger: Pick<Logger, "warn">;
      /** What is read, in the log's words ("destination rules"). */
      what: string;
      /** Whether a change-feed payload announces a change to this table. */
      announces: (payload: string) => boolean;
      /** Reads the table and takes it into use. */
      read: () => Promise<void>;
      /** Also read this often (none: only when announced). */
      everyMs?: number;
      retryMs?: number;
    },
  ) {}

  async start(): Promise<void> {
    let wasLive = true;
    const stopFeed = await this.options.database.listen(CHANGES_CHANNEL, {
      notification: (payload) => {
        if (this.options.announces(payload)) void this.reload();
      },
      live: (isLive) => {
        if (isLive && !wasLive) void this.reload();
        wasLive = isLive;
      },
    });
    // Stopped while the feed was being opened (a gateway closed during its start): nothing is
    // read or scheduled from now on.
    if (this.stopped) {
      await stopFeed();
      return;
    }
    this.stopFeed = stopFeed;
    await this.reload();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const stopFeed = this.stopFeed;
    this.stopFeed = null;
    await stopFeed?.();
    await this.loading;
  }

  reload(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    let next = this.options.everyMs ?? null;
    this.loading = this.options
      .read()
      .catch((error: unknown) => {
        this.options.logger.warn({ err: error }, `${this.options.what} not read; retrying`);
        next = this.options.retryMs ?? RETRY_MS;
      })
      .finally(() => {
        this.loading = null;
        if (this.again) {
          this.again = false;
          void this.reload();
        } else if (next !== null && this.stopFeed) {
          this.schedule(next);
        }
      });
    return this.loading;
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.reload();
    }, delayMs);
    this.timer.unref();
  }
}
