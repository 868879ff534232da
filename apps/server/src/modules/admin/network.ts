import type {
  AdminNetworkResponse,
  GatewayInstance,
  UpstreamHealth,
  UpstreamStatus,
} from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import { CONNECT_MS_BOUNDS, histogramMedian } from "@bytetoll/egress";

/** The upstream figures cover this window; a heartbeat older than a minute is a gone instance. */
const WINDOW_MINUTES = 60;

interface InstanceRow {
  instance_id: string;
  started_at: Date | string;
  updated_at: Date | string;
  live_connections: number | string;
  bytes_per_second: number | string;
  flush_lag_seconds: number | string;
  refusals: Record<string, number>;
  upstreams: { pool: string; id: string; down: boolean }[];
}

interface StatsRow {
  pool: string;
  upstream_id: string;
  attempts: string | number;
  failures: string | number;
  connect_ms_buckets: (string | number)[];
  bytes: string | number;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function statusOf(views: boolean[]): UpstreamStatus {
  if (views.length === 0) return "unknown";
  const down = views.filter(Boolean).length;
  return down === 0 ? "up" : down === views.length ? "down" : "degraded";
}

/**
 * What the gateways report (decision 018): the live instances' heartbeats, and per exit of each
 * pool the last hour's attempts, failures, median connect time and bytes of every instance
 * together, with whether the live instances have it marked down.
 */
export async function networkFigures(database: Database): Promise<AdminNetworkResponse["data"]> {
  const instanceRows = await database.query<InstanceRow>(
    `SELECT instance_id, started_at, updated_at, live_connections, bytes_per_second, flush_lag_seconds,
            refusals, upstreams
       FROM gateway_instances WHERE updated_at > now() - interval '1 minute' ORDER BY started_at, instance_id`,
  );
  const statsRows = await database.query<StatsRow>(
    `SELECT pool, upstream_id, attempts, failures, connect_ms_buckets, bytes FROM upstream_stats
      WHERE minute > now() - $1 * interval '1 minute'`,
    [WINDOW_MINUTES],
  );
  const instances: GatewayInstance[] = instanceRows.map((row) => ({
    instance_id: row.instance_id,
    started_at: iso(row.started_at),
    updated_at: iso(row.updated_at),
    live_connections: Number(row.live_connections),
    bytes_per_second: Math.max(0, Number(row.bytes_per_second)),
    flush_lag_seconds: Math.max(0, Number(row.flush_lag_seconds)),
    refusals: row.refusals,
  }));

  const exits = new Map<
    string,
    { pool: string; id: string; views: boolean[]; downOn: string[]; figures: StatsRow[] }
  >();
  const exitOf = (pool: string, id: string) => {
    const key = JSON.stringify([pool, id]);
    let exit = exits.get(key);
    if (!exit) {
      exit = { pool, id, views: [], downOn: [], figures: [] };
      exits.set(key, exit);
    }
    return exit;
  };
  for (const row of instanceRows) {
    for (const upstream of row.upstreams) {
      const exit = exitOf(upstream.pool, upstream.id);
      exit.views.push(upstream.down);
      if (upstream.down) exit.downOn.push(row.instance_id);
    }
  }
  for (const row of statsRows) exitOf(row.pool, row.upstream_id).figures.push(row);

  const upstreams: UpstreamHealth[] = [...exits.values()]
    .filter((exit) => exit.pool === "mobile" || exit.pool === "dc")
    .map((exit) => {
      const buckets = new Array<number>(CONNECT_MS_BOUNDS.length + 1).fill(0);
      let attempts = 0;
      let failures = 0;
      let bytes = 0;
      for (const row of exit.figures) {
        attempts += Number(row.attempts);
        failures += Number(row.failures);
        bytes += Number(row.bytes);
        row.connect_ms_buckets.forEach((count, i) => {
          buckets[i] = (buckets[i] ?? 0) + Number(count);
        });
      }
      const median = histogramMedian(buckets);
      return {
        pool: exit.pool as UpstreamHealth["pool"],
        upstream_id: exit.id,
        status: statusOf(exit.views),
        down_on: exit.downOn,
        attempts,
        failures,
        success_rate: attempts === 0 ? null : (attempts - failures) / attempts,
        median_connect_ms: median === null ? null : Math.round(median * 10) / 10,
        bytes,
      };
    })
    .sort((a, b) => a.pool.localeCompare(b.pool) || a.upstream_id.localeCompare(b.upstream_id));

  return { generated_at: new Date().toISOString(), window_minutes: WINDOW_MINUTES, instances, upstreams };
}
