import { type ChildProcess, spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import { cpuMs } from "../gateway/children.ts";
import { ask } from "../shared/ipc.ts";

/**
 * `npm run bench`: GET /account/status and GET /transactions (an account with a few hundred
 * orders) beside a bare Fastify route — one with a balance-sized body, one sending the same
 * page /transactions sends — measured in the same run on loopback with autocannon.
 * Each target runs for a fixed time, so the whole run ends by itself (~1.5 min).
 * BENCH_BASELINE=<checkout> instead compares GET /account/status of this tree and of that
 * checkout (before/after a change in one run; the checkout needs its node_modules).
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAIR_SLICES = Number(process.env.BENCH_PAIR_SLICES ?? 40);
const CONNECTIONS = 16;
const GOAL = 0.5;
const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";
const here = fileURLToPath(new URL(".", import.meta.url));

interface Ready {
  type: "ready";
  appPort: number;
  barePort: number;
  token: string;
  database: string;
  /** Size of the page GET /transactions answers. */
  pageBytes: number;
}

interface Row {
  target: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The serving process's CPU time (user + system) per answered request: steadier than req/s
   * when other work shares the cores, since it counts only what the server itself spent. */
  cpuUs: number;
  requests: number;
}

/** PostgreSQL when one answers (DATABASE_URL or the local default), else the embedded PGlite. */
async function databaseUrl(): Promise<string | undefined> {
  const candidate = process.env.DATABASE_URL ?? LOCAL_POSTGRES;
  const client = new pg.Client({ connectionString: candidate, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    await client.end();
    return candidate;
  } catch {
    return undefined;
  }
}

function startServers(
  url: string | undefined,
  checkout = join(here, "../.."),
): Promise<{ child: ChildProcess; ready: Ready }> {
  const env = { ...process.env };
  if (url) env.DATABASE_URL = url;
  else delete env.DATABASE_URL;
  // BENCH_PROFILE_DIR=/tmp/x writes a V8 CPU profile of the server process there.
  const profile = process.env.BENCH_PROFILE_DIR
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const serverProcess = join(checkout, "bench/api/server-process.ts");
  const child = spawn(process.execPath, [...profile, "--import", "tsx", serverProcess], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env,
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`server-process exited with ${code}`)));
    child.on("message", (message: Ready) => {
      if (message.type === "ready") resolve({ child, ready: message });
    });
  });
}

/** 4096 client addresses in turn: each stays far below the per-IP limit of 600 a minute. */
let next = 0;
function forwardedFor(): string {
  next = (next + 1) % 4096;
  return `10.${(next >> 8) & 255}.${next & 255}.${1 + (next % 250)}`;
}

async function measure(
  target: string,
  url: string,
  headers: Record<string, string>,
  seconds: number,
  pid: number,
): Promise<Row> {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: "GET",
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, ...headers, "x-forwarded-for": forwardedFor() },
        }),
      },
    ],
  });
  return {
    target,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    cpuUs: ((cpuMs(pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total),
    requests: result.requests.total,
  };
}

/**
 * GET /account/status on this tree and on the baseline, in one-second slices that alternate
 * (ABBA…) PAIR_SLICES times: on a shared machine, load that comes and goes then falls on both
 * alike, which five-second turns did not give (the same code measured against itself differed
 * by 3× in CPU per request). Totals over all slices are compared.
 */
async function comparePair(pair: Array<{ child: ChildProcess; ready: Ready }>, baselineDir: string) {
  const statusOf = (server: { ready: Ready }) =>
    [
      `http://127.0.0.1:${server.ready.appPort}/account/status`,
      { authorization: `Bearer ${server.ready.token}` },
    ] as const;
  for (const server of pair) await measure("warm-up", ...statusOf(server), 2, server.child.pid ?? 0);
  const totals = pair.map(() => ({ requests: 0, cpuUs: 0, seconds: 0 }));
  for (let slice = 0; slice < PAIR_SLICES; slice++) {
    for (const i of slice % 2 === 0 ? [0, 1] : [1, 0]) {
      const server = pair[i]!;
      const row = await measure("pair", ...statusOf(server), 1, server.child.pid ?? 0);
      const total = totals[i]!;
      total.requests += row.requests;
      total.cpuUs += row.cpuUs * row.requests;
      total.seconds += 1;
    }
  }
  const [now, before] = totals.map((t) => ({ rps: t.requests / t.seconds, cpuUs: t.cpuUs / t.requests }));
  const percent = (a = 0, b = 1) => `${((a / b) * 100).toFixed(1)}%`;
  console.log(`\nGET /account/status, ${PAIR_SLICES} alternating 1 s slices each:`);
  console.log(
    `  this tree ${now!.rps.toFixed(0).padStart(8)} req/s, ${now!.cpuUs.toFixed(1)} µs CPU per request`,
  );
  console.log(
    `  baseline  ${before!.rps.toFixed(0).padStart(8)} req/s, ${before!.cpuUs.toFixed(1)} µs CPU per request (${baselineDir})`,
  );
  console.log(
    `  this tree: ${percent(now!.rps, before!.rps)} of the baseline's req/s, ${percent(now!.cpuUs, before!.cpuUs)} of its CPU per request ` +
      "(CPU per request is the steadier figure: the same code against itself came out within ±5%, req/s ±20%)",
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

interface CacheStats {
  hits: number;
  misses: number;
}

const hitRate = (stats: CacheStats) =>
  `${((stats.hits / Math.max(1, stats.hits + stats.misses)) * 100).toFixed(1)}%`;

async function main() {
  const url = await databaseUrl();
  console.log(
    `bench: ${ROUNDS} rounds × ${SECONDS} s per target, ${CONNECTIONS} connections, ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}`,
  );
  console.log("seeding an account with orders…");
  const { child, ready } = await startServers(url);
  const baselineDir = process.env.BENCH_BASELINE;
  const baseline = baselineDir ? await startServers(url, baselineDir) : null;
  console.log(`database: ${ready.database}${url ? ` (${new URL(url).host})` : ""}`);
  const auth = { authorization: `Bearer ${ready.token}` };
  const app = (path: string) => `http://127.0.0.1:${ready.appPort}${path}`;
  const bareUrl = (path: string) => `http://127.0.0.1:${ready.barePort}${path}`;
  const churn = (on: boolean) => child.send({ type: "churn", on });
  // `reference`: the bare route sending the same body, which the goal compares with.
  const targets: Array<{
    name: string;
    url: string;
    headers: Record<string, string>;
    reference: number;
    churn?: boolean;
    goal?: boolean;
  }> = [
    { name: "bare Fastify route", url: bareUrl("/bare"), headers: {}, reference: 0 },
    {
      name: `bare, ${(ready.pageBytes / 1000).toFixed(1)} kB page body`,
      url: bareUrl("/bare-page"),
      headers: {},
      reference: 1,
    },
    { name: "GET /healthz", url: app("/healthz"), headers: {}, reference: 0 },
    { name: "GET /account/status", url: app("/account/status"), headers: auth, reference: 0, goal: true },
    { name: "GET /transactions", url: app("/transactions"), headers: auth, reference: 1, goal: true },
    // The balance changing under the reads, as while the customer's traffic is metered.
    { name: "…status, debit/100 ms", url: app("/account/status"), headers: auth, reference: 0, churn: true },
  ];
  const pid = child.pid ?? 0;
  try {
    if (baseline) {
      // Before/after: each checkout's server process serves GET /account/status and nothing else.
      await comparePair([{ child, ready }, baseline], baselineDir ?? "");
      return;
    }
    for (const target of targets) await measure(target.name, target.url, target.headers, 2, pid); // warm-up
    // Rounds alternate between the targets and the median round is reported: background load on a
    // shared machine then hits all of them alike.
    const runs = targets.map(() => [] as Row[]);
    for (let round = 1; round <= ROUNDS; round++) {
      process.stdout.write(`round ${round}/${ROUNDS}…\n`);
      for (const [i, target] of targets.entries()) {
        if (target.churn) churn(true);
        runs[i]?.push(await measure(target.name, target.url, target.headers, SECONDS, pid));
        if (target.churn) churn(false);
      }
    }
    const rows = runs.map((results, i) => ({
      target: targets[i]!.name,
      rps: median(results.map((r) => r.rps)),
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      errors: results.reduce((sum, r) => sum + r.errors, 0),
      cpuUs: median(results.map((r) => r.cpuUs)),
      requests: results.reduce((sum, r) => sum + r.requests, 0),
    }));
    const ratio = (i: number) => (rows[i]?.rps ?? 0) / (rows[targets[i]?.reference ?? 0]?.rps ?? 1);
    console.log("");
    console.log(
      `${"target".padEnd(24)}${"req/s".padStart(10)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"of bare".padStart(10)}${"same body".padStart(11)}${"errors".padStart(8)}${"CPU µs/req".padStart(12)}`,
    );
    for (const [i, row] of rows.entries()) {
      const ofBare = `${((row.rps / (rows[0]?.rps ?? 1)) * 100).toFixed(0)}%`;
      const sameBody = targets[i]?.reference === 1 ? `${(ratio(i) * 100).toFixed(0)}%` : "";
      console.log(
        `${row.target.padEnd(24)}${row.rps.toFixed(0).padStart(10)}${String(row.p50).padStart(9)}${String(row.p99).padStart(9)}${ofBare.padStart(10)}${sameBody.padStart(11)}${String(row.errors).padStart(8)}${row.cpuUs.toFixed(0).padStart(12)}`,
      );
    }
    type Stats = { sessions: CacheStats; balances: CacheStats; orderPages: CacheStats };
    const cacheLine = (stats: Stats) =>
      `sessions ${hitRate(stats.sessions)}, balances ${hitRate(stats.balances)}, order pages ${hitRate(stats.orderPages)}`;
    console.log(
      `\nserved from the instance's caches (decision 006): ${cacheLine(await ask<Stats>(child, "stats"))}`,
    );
    const failing = rows.filter((row, i) => targets[i]?.goal && (ratio(i) < GOAL || row.errors > 0));
    console.log(
      failing.length === 0
        ? `goal met: GET /account/status and GET /transactions ≥ ${GOAL * 100}% of the bare route sending the same body, no errors`
        : `goal missed by: ${failing.map((row) => row.target).join(", ")}`,
    );
  } finally {
    for (const server of [child, baseline?.child]) {
      if (!server) continue;
      server.removeAllListeners("exit");
      server.send({ type: "stop" });
      await new Promise((resolve) => server.once("exit", resolve));
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
