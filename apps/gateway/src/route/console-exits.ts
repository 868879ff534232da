import type { Database } from "@bytetoll/db";
import {
  budgetReached,
  CONSOLE_EXITS_SQL,
  type ConsoleExitRow,
  consoleExitSpec,
  type UpstreamSpec,
} from "@bytetoll/egress";
import type { Logger } from "pino";
import { FeedTable } from "../base/feed-table.ts";
import type { UpstreamPool } from "./upstream-pool.ts";

/** Migration 0039's trigger announces a change to an exit as "upstream:<id>". */
const UPSTREAM_PREFIX = "upstream:";
/** Exits are read again this often besides the announcements: a budget reached by usage other
 * instances committed, and a new month, are noticed within this. */
export const EXITS_RELOAD_MS = 5_000;
/** After a failed read, the exits are read again after this long. */
const RETRY_MS = 1_000;

/**
 * The exits managed in the console, kept in step with the database on this instance: read at
 * start, again whenever the change feed announces one (within moments on every instance), when
 * the feed comes back after an outage, and every EXITS_RELOAD_MS. A disabled exit, one whose
 * monthly budget is reached, and a deleted one leave their pool: no new connection goes through
 * them, while open tunnels keep their sockets.
 */
export class ConsoleExits {
  private readonly table: FeedTable;

  constructor(
    private readonly deps: {
      database: Database;
      pools: { mobile: UpstreamPool; dc: UpstreamPool };
      key: Buffer | null;
      trust: { ca?: string };
      logger: Pick<Logger, "warn" | "error">;
      reloadMs?: number;
    },
  ) {
    this.table = new FeedTable({
      database: deps.database,
      logger: deps.logger,
      what: "console exits",
      announces: (payload) => payload.startsWith(UPSTREAM_PREFIX),
      read: async () => this.apply(await deps.database.query<ConsoleExitRow>(CONSOLE_EXITS_SQL)),
      everyMs: deps.reloadMs ?? EXITS_RELOAD_MS,
      retryMs: RETRY_MS,
    });
  }

  start(): Promise<void> {
    return this.table.start();
  }

  stop(): Promise<void> {
    return this.table.stop();
  }

  private apply(rows: ConsoleExitRow[]): void {
    const specs: Record<"mobile" | "datacenter", UpstreamSpec[]> = { mobile: [], datacenter: [] };
    for (const row of rows) {
      if (!row.enabled || budgetReached(row)) continue;
      try {
        specs[row.pool].push(consoleExitSpec(row, this.deps.key, this.deps.trust));
      } catch (error) {
        this.deps.logger.error({ err: error, upstream: row.id, name: row.name }, "console exit left out");
      }
    }
    this.deps.pools.mobile.setConsole(specs.mobile);
    this.deps.pools.dc.setConsole(specs.datacenter);
  }
}
