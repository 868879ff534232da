import type { Database } from "@bytetoll/db";
import type { Logger } from "pino";
import type { UpstreamPool } from "../route/upstream-pool.ts";

/** How often an instance writes its heartbeat and its exits' figures. */
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** Figures and heartbeats older than this are deleted (the console shows the last hour). */
const KEEP_MS = 24 * 3_600_000;
/** Refusal and served counts per minute are kept for the overview's longest window. */
const KEEP_REFUSALS_MS = 90 * 24 * 3_600_000;
/** Minutes of refusal counts held in memory while the database cannot be written. */
const MAX_PENDING_MINUTES = 60;
const PRUNE_EVERY_MS = 3_600_000;

/** What the heartbeat reads from the running gateway. */
export interface ReportSources {
  liveConnections(): number;
  /** Metered bytes relayed since start. */
  relayedBytes(): number;
  flushLagSeconds(): number;
  /** Refusals since start, by reason. */
  refusals(): Promise<Record<string, number>>;
  /** Requests served (plain HTTP requests and CONNECT tunnels) since start. */
  served(): Promise<number>;
}

/** One minute's counts not yet added to refusal_stats / served_stats. */
interface PendingMinute {
  served: number;
  refusals: Map<string, number>;
}

/**
 * The instance's part of the operator's network view (decision 018): every few seconds it
 * rewrites its own per-minute rows of upstream_stats (connect attempts, the exits' failures,
 * connect times, bytes) and its gateway_instances heartbeat (live connections, bytes per second,
 * flush lag, refusals, which exits it has marked down). It also adds the refusals by reason and
 * the requests served since the last beat to the current minute's rows of refusal_stats and
 * served_stats (read from the Prometheus counters, so the request path only increments them).
 * A failed write is retried at the next beat; the figures wait in memory (at most an hour of
 * them). Off the request path entirely.
 */
export class NetworkReport {
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;
  private readonly startedAt = new Date();
  private lastBytes = 0;
  private lastBeatAt = Date.now();
  private prunedAt = 0;
  /** The counters as last read; what they grew since goes to the current minute. */
  private lastRefusals: Record<string, number> = {};
  private lastServed = 0;
  private readonly pending = new Map<number, PendingMinute>();

  constructor(
    private readonly deps: {
      database: Database;
      instanceId: string;
      pools: UpstreamPool[];
      sources: ReportSources;
      logger: Logger;
      intervalMs: number;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.beat(), this.deps.intervalMs);
    this.timer.unref();
    void this.beat();
  }

  /** Writes the last figures and takes the heartbeat away: the instance is gone at once. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    try {
      await this.saveFigures();
      await this.saveRefusals();
      await this.deps.database.query("DELETE FROM gateway_instances WHERE instance_id = $1", [
        this.deps.instanceId,
      ]);
    } catch (error) {
      this.deps.logger.warn({ err: error }, "network figures not saved at stop");
    }
  }

  /** One beat; concurrent calls share the one in progress. */
  beat(): Promise<void> {
    this.beating ??= this.write()
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, "network figures not saved"))
      .finally(() => {
        this.beating = null;
      });
    return this.beating;
  }

  private async write(): Promise<void> {
    await this.saveFigures();
    await this.saveRefusals();
    await this.saveHeartbeat();
    if (Date.now() - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await this.deps.database.query(
        "DELETE FROM upstream_stats WHERE minute < now() - $1 * interval '1 millisecond'",
        [KEEP_MS],
      );
      for (const table of ["refusal_stats", "served_stats"]) {
        await this.deps.database.query(
          `DELETE FROM ${table} WHERE minute < now() - $1 * interval '1 millisecond'`,
          [KEEP_REFUSALS_MS],
        );
      }
      await this.deps.database.query(
        "DELETE FROM gateway_instances WHERE updated_at < now() - $1 * interval '1 millisecond'",
        [KEEP_MS],
      );
    }
  }

  /** This instance's rows are its own: each open minute is rewritten whole. */
  private async saveFigures(): Promise<void> {
    const now = Date.now();
    const rows = this.deps.pools.flatMap((pool) =>
      pool.exits.flatMap((exit) =>
        exit.openMinutes(now).map((figures) => ({
          pool: pool.name,
          upstream_id: exit.id,
          minute: new Date(figures.minute).toISOString(),
          attempts: figures.attempts,
          failures: figures.failures,
          connect_ms_sum: Math.round(figures.connectMsSum),
          connect_ms_buckets: `{${figures.connectMsBuckets.join(",")}}`,
          bytes: figures.bytes,
        })),
      ),
    );
    if (rows.length > 0) {
      await this.deps.database.query(
        `INSERT INTO upstream_stats AS s
           (instance_id, pool, upstream_id, minute, attempts, failures, connect_ms_sum, connect_ms_buckets, bytes)
         SELECT $1, r.pool, r.upstream_id, r.minute, r.attempts, r.failures, r.connect_ms_sum,
                r.connect_ms_buckets::bigint[], r.bytes
           FROM json_to_recordset($2::json) AS r(pool text, upstream_id text, minute timestamptz,
                attempts bigint, failures bigint, connect_ms_sum bigint, connect_ms_buckets text, bytes bigint)
         ON CONFLICT (instance_id, pool, upstream_id, minute) DO UPDATE SET
           attempts = EXCLUDED.attempts, failures = EXCLUDED.failures,
           connect_ms_sum = EXCLUDED.connect_ms_sum, connect_ms_buckets = EXCLUDED.connect_ms_buckets,
           bytes = EXCLUDED.bytes`,
        [this.deps.instanceId, JSON.stringify(rows)],
      );
    }
    for (const pool of this.deps.pools) for (const exit of pool.exits) exit.saved(now);
  }

  /** Moves what the counters grew since the last read into the current minute. */
  private async countRefusals(): Promise<void> {
    const { sources } = this.deps;
    const refusals = await sources.refusals();
    const served = await sources.served();
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const open = this.pending.get(minute) ?? { served: 0, refusals: new Map<string, number>() };
    open.served += Math.max(0, served - this.lastServed);
    for (const [reason, count] of Object.entries(refusals)) {
      const grown = count - (this.lastRefusals[reason] ?? 0);
      if (grown > 0) open.refusals.set(reason, (open.refusals.get(reason) ?? 0) + grown);
    }
    this.lastServed = served;
    this.lastRefusals = refusals;
    if (open.served > 0 || open.refusals.size > 0) this.pending.set(minute, open);
    for (const key of [...this.pending.keys()].sort((a, b) => a - b).slice(0, -MAX_PENDING_MINUTES))
      this.pending.delete(key);
  }

  /** Adds the pending minutes to this instance's rows in one statement (all or nothing, so a
   * retry never adds a count twice). */
  private async saveRefusals(): Promise<void> {
    await this.countRefusals();
    if (this.pending.size === 0) return;
    const minutes = [...this.pending.entries()];
    const refused = minutes.flatMap(([minute, counts]) =>
      [...counts.refusals].map(([reason, count]) => ({
        minute: new Date(minute).toISOString(),
        reason,
        count,
      })),
    );
    const served = minutes
      .filter(([, counts]) => counts.served > 0)
      .map(([minute, counts]) => ({ minute: new Date(minute).toISOString(), count: counts.served }));
    await this.deps.database.query(
      `WITH refused AS (
         INSERT INTO refusal_stats AS s (instance_id, minute, reason, count)
         SELECT $1, r.minute, r.reason, r.count
           FROM json_to_recordset($2::json) AS r(minute timestamptz, reason text, count bigint)
         ON CONFLICT (instance_id, minute, reason) DO UPDATE SET count = s.count + EXCLUDED.count)
       INSERT INTO served_stats AS s (instance_id, minute, count)
       SELECT $1, r.minute, r.count FROM json_to_recordset($3::json) AS r(minute timestamptz, count bigint)
       ON CONFLICT (instance_id, minute) DO UPDATE SET count = s.count + EXCLUDED.count`,
      [this.deps.instanceId, JSON.stringify(refused), JSON.stringify(served)],
    );
    for (const [minute] of minutes) this.pending.delete(minute);
  }

  private async saveHeartbeat(): Promise<void> {
    const { sources } = this.deps;
    const now = Date.now();
    const bytes = sources.relayedBytes();
    const seconds = Math.max(0.001, (now - this.lastBeatAt) / 1000);
    const bytesPerSecond = (bytes - this.lastBytes) / seconds;
    const upstreams = this.deps.pools.flatMap((pool) =>
      pool.exits.map((exit) => ({ pool: pool.name, id: exit.id, down: exit.down })),
    );
    await this.deps.database.query(
      `INSERT INTO gateway_instances
         (instance_id, started_at, updated_at, live_connections, bytes_per_second, flush_lag_seconds, refusals, upstreams)
       VALUES ($1, $2, now(), $3, $4, $5, $6::jsonb, $7::jsonb)
       ON CONFLICT (instance_id) DO UPDATE SET
         started_at = EXCLUDED.started_at, updated_at = now(), live_connections = EXCLUDED.live_connections,
         bytes_per_second = EXCLUDED.bytes_per_second, flush_lag_seconds = EXCLUDED.flush_lag_seconds,
         refusals = EXCLUDED.refusals, upstreams = EXCLUDED.upstreams`,
      [
        this.deps.instanceId,
        this.startedAt.toISOString(),
        sources.liveConnections(),
        bytesPerSecond,
        sources.flushLagSeconds(),
        JSON.stringify(await sources.refusals()),
        JSON.stringify(upstreams),
      ],
    );
    this.lastBytes = bytes;
    this.lastBeatAt = now;
  }
}
