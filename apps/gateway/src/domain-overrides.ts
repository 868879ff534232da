import { CHANGES_CHANNEL, type Database } from "@bytetoll/db";
import type { Logger } from "pino";

/** Migration 0017's triggers announce an operator's override as "domain_override:<domain>". */
const OVERRIDE_PREFIX = "domain_override:";
/** After a failed load, the overrides are read again after this long. */
const RETRY_MS = 2_000;

export type DomainRoute = "datacenter" | "premium";

/**
 * The operator's global routes per domain (docs/product.md#intelligence-rules): under
 * -routing-smart a domain with an override goes over datacenter or mobile for every customer,
 * whatever their own rules say. Held in memory, read again whenever the change feed announces an
 * override (and when the feed comes back after an outage), never per request.
 */
export class DomainOverrides {
  private routes = new Map<string, DomainRoute>();
  private loading: Promise<void> | null = null;
  private again = false;
  private retry: NodeJS.Timeout | null = null;
  private stopFeed: (() => Promise<void>) | null = null;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
  ) {}

  /** The override of the host or of the closest parent domain that has one. */
  routeOf(host: string): DomainRoute | null {
    if (this.routes.size === 0) return null;
    let name = host;
    for (;;) {
      const route = this.routes.get(name);
      if (route) return route;
      const dot = name.indexOf(".");
      if (dot === -1) return null;
      name = name.slice(dot + 1);
    }
  }

  async start(): Promise<void> {
    let wasLive = true;
    this.stopFeed = await this.database.listen(CHANGES_CHANNEL, {
      notification: (payload) => {
        if (payload.startsWith(OVERRIDE_PREFIX)) void this.reload();
      },
      live: (isLive) => {
        if (isLive && !wasLive) void this.reload();
        wasLive = isLive;
      },
    });
    await this.reload();
  }

  async stop(): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    await this.stopFeed?.();
    await this.loading;
  }

  /** Reads every override; a change announced while a read runs is read again after it. */
  private reload(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = this.database
      .query<{ domain: string; override: DomainRoute }>(
        "SELECT domain, override FROM domain_verdicts WHERE override IS NOT NULL",
      )
      .then((rows) => {
        this.routes = new Map(rows.map((row) => [row.domain, row.override]));
      })
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, "domain overrides not read; retrying");
        this.retry ??= setTimeout(() => {
          this.retry = null;
          void this.reload();
        }, RETRY_MS);
        this.retry.unref();
      })
      .finally(() => {
        this.loading = null;
        if (this.again) {
          this.again = false;
          void this.reload();
        }
      });
    return this.loading;
  }
}
