import type { Database } from "@bytetoll/db";
import type { Logger } from "pino";
import { FeedTable } from "../base/feed-table.ts";

/** Migration 0017's triggers announce an operator's override as "domain_override:<domain>". */
const OVERRIDE_PREFIX = "domain_override:";

export type DomainRoute = "datacenter" | "premium";

/**
 * The operator's global routes per domain (docs/product.md#intelligence-rules): under
 * -routing-smart a domain with an override goes over datacenter or mobile for every customer,
 * whatever their own rules say. Held in memory, read again whenever the change feed announces an
 * override (and when the feed comes back after an outage), never per request.
 */
export class DomainOverrides {
  private routes = new Map<string, DomainRoute>();
  private readonly table: FeedTable;

  constructor(database: Database, logger: Logger) {
    this.table = new FeedTable({
      database,
      logger,
      what: "domain overrides",
      announces: (payload) => payload.startsWith(OVERRIDE_PREFIX),
      read: async () => {
        const rows = await database.query<{ domain: string; override: DomainRoute }>(
          "SELECT domain, override FROM domain_verdicts WHERE override IS NOT NULL",
        );
        this.routes = new Map(rows.map((row) => [row.domain, row.override]));
      },
    });
  }

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

  start(): Promise<void> {
    return this.table.start();
  }

  stop(): Promise<void> {
    return this.table.stop();
  }
}
