import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { type Database, openDatabase } from "@bytetoll/db";
import { createThrowawayPostgres } from "@bytetoll/db/testing";
import pg from "pg";
import { insertGeneratedUsage } from "../../apps/server/src/cli/usage-generator.ts";
import { createUsageService } from "../../apps/server/src/modules/usage/service.ts";

/**
 * `npm run bench:usage`: p50/p95 of each usage grouping at 90 days for an account with 1,000,000
 * rollup rows (two years, 2,000 domains), on PGlite and — when reachable — PostgreSQL, beside a
 * trivial reference query measured in the same run on the same connection. Fixed work, so it
 * ends by itself; loopback only; every database it makes is thrown away.
 */

const ROWS = Number(process.env.BENCH_USAGE_ROWS ?? 1_000_000);
const DAYS_OF_HISTORY = 730;
const DOMAINS = 2_000;
/** Another account's rows in the same table: the queries must not pay for them. */
const NEIGHBOUR_ROWS = 100_000;
const WINDOW_DAYS = 90;
const WARMUP = 5;
const SAMPLES = 60;
const GOAL_P95_MS = 50;
const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";

interface Timing {
  name: string;
  p50: number;
  p95: number;
  max: number;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * fraction) - 1)]!;
}

async function measure(name: string, run: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < WARMUP; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { name, p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), max: samples.at(-1)! };
}

async function createUser(database: Database, email: string): Promise<string> {
  const [user] = await database.query<{ id: string }>("INSERT INTO users (email) VALUES ($1) RETURNING id", [
    email,
  ]);
  return user!.id;
}

async function seed(database: Database): Promise<{ userId: string; rows: number }> {
  const userId = await createUser(database, "bench-usage@example.com");
  const neighbour = await createUser(database, "bench-neighbour@example.com");
  const started = performance.now();
  const rows = await insertGeneratedUsage(database, {
    userId,
    days: DAYS_OF_HISTORY,
    domains: DOMAINS,
    targetRows: ROWS,
    seed: 1,
  });
  await insertGeneratedUsage(database, {
    userId: neighbour,
    days: DAYS_OF_HISTORY,
    domains: 500,
    targetRows: NEIGHBOUR_ROWS,
    seed: 2,
  });
  // As autovacuum would after a load: planner statistics and the visibility map.
  await database.query("VACUUM ANALYZE usage_rollups");
  console.log(
    `  seeded ${rows.toLocaleString("en-US")} rows for the account (+ a neighbour) in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { userId, rows };
}

/** How many rows each source holds for the 90-day window: what the groupings have to read. */
async function windowSizes(database: Database, userId: string): Promise<string> {
  const [sizes] = await database.query<{ rollups: string; weekly: string; daily: string }>(
    `SELECT (SELECT count(*) FROM usage_rollups WHERE user_id = $1 AND day > current_date - 90) AS rollups,
            (SELECT count(*) FROM usage_weekly_domains WHERE user_id = $1 AND week > current_date - 90) AS weekly,
            (SELECT count(*) FROM usage_daily_totals WHERE user_id = $1 AND day > current_date - 90) AS daily`,
    [userId],
  );
  return `  90-day window: ${Number(sizes!.rollups).toLocaleString("en-US")} rollup rows, ${Number(sizes!.weekly).toLocaleString("en-US")} weekly domain rows, ${sizes!.daily} daily total rows`;
}

async function benchmark(label: string, database: Database): Promise<Timing[]> {
  console.log(`\n${label}`);
  const { userId } = await seed(database);
  console.log(await windowSizes(database, userId));
  const usage = createUsageService({ database });
  const timings = [
    await measure("reference: SELECT 1", () => database.query("SELECT 1")),
    await measure(`by day, ${WINDOW_DAYS} d`, () => usage.byDay(userId, WINDOW_DAYS)),
    await measure(`by domain + Others, ${WINDOW_DAYS} d`, () => usage.byDomain(userId, WINDOW_DAYS, true)),
    await measure(`by domain, all, ${WINDOW_DAYS} d`, () => usage.byDomain(userId, WINDOW_DAYS, false)),
    await measure(`by proxy type, ${WINDOW_DAYS} d`, () => usage.byProxyType(userId, WINDOW_DAYS)),
  ];
  // Other work on the machine inflates every number but the reference; say how busy it was.
  const [load1] = loadavg();
  console.log(`  (load average ${load1!.toFixed(2)} on ${cpus().length} cores while measuring)`);
  for (const t of timings) {
    console.log(
      `  ${t.name.padEnd(30)} p50 ${t.p50.toFixed(2).padStart(8)} ms   p95 ${t.p95.toFixed(2).padStart(8)} ms` +
        `   max ${t.max.toFixed(2).padStart(8)} ms`,
    );
  }
  return timings;
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function onPostgres(baseUrl: string): Promise<Timing[]> {
  const database = await createThrowawayPostgres(baseUrl, "bytetoll_bench", 2);
  const url = new URL(database.url as string);
  try {
    return await benchmark(
      `PostgreSQL (${url.host}, throw-away database ${url.pathname.slice(1)})`,
      database,
    );
  } finally {
    await database.close();
  }
}

async function main() {
  console.log(
    `bench:usage — ${ROWS.toLocaleString("en-US")} rollup rows (${DAYS_OF_HISTORY} days, ${DOMAINS} domains), ` +
      `${SAMPLES} samples per query after ${WARMUP} warm-ups, window ${WINDOW_DAYS} days`,
  );
  const pglite = await openDatabase({});
  try {
    await benchmark("PGlite (in memory)", pglite);
  } finally {
    await pglite.close();
  }

  const baseUrl = process.env.DATABASE_URL || LOCAL_POSTGRES;
  if (!(await reachable(baseUrl))) {
    console.log(`\nPostgreSQL not reachable at ${new URL(baseUrl).host}: skipped (set DATABASE_URL).`);
    return;
  }
  const timings = await onPostgres(baseUrl);
  const worst = Math.max(...timings.slice(1).map((t) => t.p95));
  console.log(
    `\nGoal p95 ≤ ${GOAL_P95_MS} ms on PostgreSQL: ${worst <= GOAL_P95_MS ? "met" : "NOT met"} ` +
      `(worst grouping p95 ${worst.toFixed(2)} ms)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
