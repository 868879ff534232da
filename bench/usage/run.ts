import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { type Database, openDatabase, schema } from "@bytetoll/db";
import { createThrowawayPostgres } from "@bytetoll/db/testing";
import pg from "pg";
import { insertGeneratedUsage } from "../../apps/server/src/cli/usage-generator.ts";
import { lastDays, spanRanges } from "../../apps/server/src/modules/usage/day-window.ts";
import { createUsageService } from "../../apps/server/src/modules/usage/service.ts";
import { seedUsageSql } from "./seed-sql.ts";

/**
 * `npm run bench:usage`: p50/p95 of each usage grouping at 90 days, beside a trivial reference
 * query measured in the same run on the same connection. On PGlite: an account with 1,000,000
 * rollup rows (two years, 2,000 domains). On PostgreSQL (when reachable): a table of 10,000,000
 * rollup rows — an account of 2 M rows all on its own credentials (usage as it was before
 * sub-users), the same traffic of an account spread over 20 sub-users, and neighbours — with the
 * sub-user grouping and a sub-user filter too. Fixed work, so it ends by itself; loopback only;
 * every database it makes is thrown away.
 */

const ROWS = Number(process.env.BENCH_USAGE_ROWS ?? 1_000_000);
/** Rollup rows of the whole table on PostgreSQL, and of each measured account there. */
const PG_ROWS = Number(process.env.BENCH_USAGE_PG_ROWS ?? 10_000_000);
const PG_ACCOUNT_ROWS = PG_ROWS / 5;
const PG_NEIGHBOURS = 30;
const PG_DOMAINS = 3_000;
const SUBUSERS = 20;
const DAYS_OF_HISTORY = 730;
const DOMAINS = 2_000;
/** Another account's rows in the same table: the queries must not pay for them. */
const NEIGHBOUR_ROWS = 100_000;
const WINDOW_DAYS = 90;
const WARMUP = 5;
const SAMPLES = 60;
const GOAL_P95_MS = 25;
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
  await database.query("VACUUM ANALYZE usage_rollups, usage_daily_totals, usage_domain_totals");
  console.log(
    `  seeded ${rows.toLocaleString("en-US")} rows for the account (+ a neighbour) in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { userId, rows };
}

/** How many rows each source holds for the 90-day window: what the groupings have to read. */
async function windowSizes(database: Database, userId: string): Promise<string> {
  const ranges = spanRanges(lastDays(WINDOW_DAYS, new Date()));
  const [sizes] = await database.query<{ rollups: string; domain: string; daily: string }>(
    `SELECT (SELECT count(*) FROM usage_rollups WHERE user_id = $1 AND day > current_date - 90) AS rollups,
            (SELECT count(*)
               FROM unnest($2::int[], $3::date[], $4::date[]) AS r(span, first, last)
               JOIN usage_domain_totals t ON t.user_id = $1 AND t.subuser_id = $5 AND t.span = r.span
                AND t.start BETWEEN r.first AND r.last) AS domain,
            (SELECT count(*) FROM usage_daily_totals WHERE user_id = $1 AND day > current_date - 90) AS daily`,
    [
      userId,
      ranges.map((range) => range.span),
      ranges.map((range) => range.first),
      ranges.map((range) => range.last),
      schema.ALL_SUBUSERS,
    ],
  );
  const count = (n: string) => Number(n).toLocaleString("en-US");
  return `  90-day window: ${count(sizes!.rollups)} rollup rows, ${count(sizes!.domain)} domain span rows, ${count(sizes!.daily)} daily total rows`;
}

/** Each grouping at 90 days for the account, or only one sub-user's usage of it. */
async function groupings(database: Database, userId: string, only: string | null = null): Promise<Timing[]> {
  const usage = createUsageService({ database });
  const of = only === null ? "" : " (1 sub-user)";
  return [
    await measure(`by day${of}`, () => usage.byDay(userId, WINDOW_DAYS, only)),
    await measure(`by domain + Others${of}`, () => usage.byDomain(userId, WINDOW_DAYS, true, only)),
    await measure(`by domain, all${of}`, () => usage.byDomain(userId, WINDOW_DAYS, false, only)),
    await measure(`by proxy type${of}`, () => usage.byProxyType(userId, WINDOW_DAYS, only)),
    await measure(`by sub-user${of}`, () => usage.bySubuser(userId, WINDOW_DAYS, only)),
  ];
}

function print(title: string, timings: Timing[]): void {
  console.log(`  ${title}`);
  for (const t of timings) {
    console.log(
      `    ${t.name.padEnd(34)} p50 ${t.p50.toFixed(2).padStart(8)} ms   p95 ${t.p95.toFixed(2).padStart(8)} ms` +
        `   max ${t.max.toFixed(2).padStart(8)} ms`,
    );
  }
}

// Other work on the machine inflates every number but the reference; say how busy it was.
const load = () => `(load average ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores while measuring)`;

async function onPglite(): Promise<void> {
  const database = await openDatabase({});
  try {
    console.log("\nPGlite (in memory)");
    const { userId } = await seed(database);
    console.log(await windowSizes(database, userId));
    const reference = await measure("reference: SELECT 1", () => database.query("SELECT 1"));
    const timings = await groupings(database, userId);
    console.log(`  ${load()}`);
    print("an account on its own credentials", [reference, ...timings]);
  } finally {
    await database.close();
  }
}

/** The table at PG_ROWS: the account before sub-users, the one after, and neighbours. */
async function seedPostgres(database: Database): Promise<{ before: string; after: string; subuser: string }> {
  const started = performance.now();
  const before = await createUser(database, "bench-before@example.com");
  const after = await createUser(database, "bench-after@example.com");
  const subusers = await database.query<{ id: string }>(
    `INSERT INTO subusers (user_id, label, username, password_hash, password_enc, limit_period, period_start)
     SELECT $1, 'sub-user ' || n, 'subench' || n, 'unused', 'unused', 'total', subuser_period_start('total')
       FROM generate_series(1, $2::int) AS n RETURNING id`,
    [after, SUBUSERS],
  );
  const account = { days: DAYS_OF_HISTORY, domains: PG_DOMAINS, rows: PG_ACCOUNT_ROWS };
  let rows = await seedUsageSql(
    database,
    { ...account, userId: before, credentials: [schema.NO_SUBUSER] },
    0.1,
  );
  const credentials = [schema.NO_SUBUSER, ...subusers.map((row) => row.id)];
  rows += await seedUsageSql(database, { ...account, userId: after, credentials }, 0.2);
  const neighbourRows = (PG_ROWS - rows) / PG_NEIGHBOURS;
  for (let i = 0; i < PG_NEIGHBOURS; i++) {
    const userId = await createUser(database, `bench-neighbour-${i}@example.com`);
    const neighbour = { days: DAYS_OF_HISTORY, domains: PG_DOMAINS, rows: neighbourRows, userId };
    rows += await seedUsageSql(database, { ...neighbour, credentials: [schema.NO_SUBUSER] }, 0.3 + i / 1000);
  }
  await database.query("VACUUM ANALYZE usage_rollups, usage_daily_totals, usage_domain_totals, subusers");
  console.log(
    `  seeded ${rows.toLocaleString("en-US")} rollup rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { before, after, subuser: subusers[0]!.id };
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
    console.log(`\nPostgreSQL (${url.host}, throw-away database ${url.pathname.slice(1)})`);
    const { before, after, subuser } = await seedPostgres(database);
    console.log(await windowSizes(database, before));
    console.log(await windowSizes(database, after));
    const reference = await measure("reference: SELECT 1", () => database.query("SELECT 1"));
    const own = await groupings(database, before);
    const spread = await groupings(database, after);
    const one = await groupings(database, after, subuser);
    console.log(`  ${load()}`);
    print("reference", [reference]);
    print(
      `before sub-users: ${PG_ACCOUNT_ROWS.toLocaleString("en-US")} rows, all on the own credentials`,
      own,
    );
    print(`after: the same traffic spread over the own credentials and ${SUBUSERS} sub-users`, spread);
    print("after, filtered to one sub-user", one);
    return [...own, ...spread, ...one];
  } finally {
    await database.close();
  }
}

async function main() {
  console.log(
    `bench:usage — PGlite ${ROWS.toLocaleString("en-US")} rollup rows, PostgreSQL ${PG_ROWS.toLocaleString("en-US")} ` +
      `(${DAYS_OF_HISTORY} days of history), ${SAMPLES} samples per query after ${WARMUP} warm-ups, window ${WINDOW_DAYS} days`,
  );
  if (process.env.BENCH_USAGE_PGLITE !== "off") await onPglite();

  const baseUrl = process.env.DATABASE_URL || LOCAL_POSTGRES;
  if (!(await reachable(baseUrl))) {
    console.log(`\nPostgreSQL not reachable at ${new URL(baseUrl).host}: skipped (set DATABASE_URL).`);
    return;
  }
  const timings = await onPostgres(baseUrl);
  const worst = timings.reduce((a, b) => (b.p95 > a.p95 ? b : a));
  console.log(
    `\nGoal p95 ≤ ${GOAL_P95_MS} ms on PostgreSQL for every grouping: ${worst.p95 <= GOAL_P95_MS ? "met" : "NOT met"} ` +
      `(worst: ${worst.name}, p95 ${worst.p95.toFixed(2)} ms)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
