import { type ChildProcess, spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import { ask } from "../shared/ipc.ts";

/**
 * `npm run bench`: GET /account/status and GET /transactions (an account with a few hundred
 * orders) beside a bare Fastify route — one with a balance-sized body, one sending the same
 * page /transactions sends — measured in the same run on loopback with autocannon.
 * Each target runs for a fixed time, so the whole run ends by itself (~1.5 min).
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 3;
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

function startServers(url: string | undefined): Promise<{ child: ChildProcess; ready: Ready }> {
  const env = { ...process.env };
  if (url) env.DATABASE_URL = url;
  else delete env.DATABASE_URL;
  // BENCH_PROFILE_DIR=/tmp/x writes a V8 CPU profile of the server process there.
  const profile = process.env.BENCH_PROFILE_DIR
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const child = spawn(process.execPath, [...profile, "--import", "tsx", join(here, "server-process.ts")], {
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

async function measure(target: string, url: string, headers: Record<string, string>, seconds: number) {
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
  };
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
  try {
    for (const target of targets) await measure(target.name, target.url, target.headers, 2); // warm-up
    // Rounds alternate between the targets and the median round is reported: background load on a
    // shared machine then hits all of them alike.
    const runs = targets.map(() => [] as Row[]);
    for (let round = 1; round <= ROUNDS; round++) {
      process.stdout.write(`round ${round}/${ROUNDS}…\n`);
      for (const [i, target] of targets.entries()) {
        if (target.churn) churn(true);
        runs[i]?.push(await measure(target.name, target.url, target.headers, SECONDS));
        if (target.churn) churn(false);
      }
    }
    const rows = runs.map((results, i) => ({
      target: targets[i]!.name,
      rps: median(results.map((r) => r.rps)),
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      errors: results.reduce((sum, r) => sum + r.errors, 0),
    }));
    const ratio = (i: number) => (rows[i]?.rps ?? 0) / (rows[targets[i]?.reference ?? 0]?.rps ?? 1);
    console.log("");
    console.log(
      `${"target".padEnd(24)}${"req/s".padStart(10)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"of bare".padStart(10)}${"same body".padStart(11)}${"errors".padStart(8)}`,
    );
    for (const [i, row] of rows.entries()) {
      const ofBare = `${((row.rps / (rows[0]?.rps ?? 1)) * 100).toFixed(0)}%`;
      const sameBody = targets[i]?.reference === 1 ? `${(ratio(i) * 100).toFixed(0)}%` : "";
      console.log(
        `${row.target.padEnd(24)}${row.rps.toFixed(0).padStart(10)}${String(row.p50).padStart(9)}${String(row.p99).padStart(9)}${ofBare.padStart(10)}${sameBody.padStart(11)}${String(row.errors).padStart(8)}`,
      );
    }
    const stats = await ask<{ sessions: CacheStats; balances: CacheStats; orderPages: CacheStats }>(
      child,
      "stats",
    );
    console.log(
      `\nserved from the instance's caches (decision 006): sessions ${hitRate(stats.sessions)}, balances ${hitRate(stats.balances)}, order pages ${hitRate(stats.orderPages)}`,
    );
    const failing = rows.filter((row, i) => targets[i]?.goal && (ratio(i) < GOAL || row.errors > 0));
    console.log(
      failing.length === 0
        ? `goal met: GET /account/status and GET /transactions ≥ ${GOAL * 100}% of the bare route sending the same body, no errors`
        : `goal missed by: ${failing.map((row) => row.target).join(", ")}`,
    );
  } finally {
    child.removeAllListeners("exit");
    child.send({ type: "stop" });
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
