import { type ChildProcess, spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";

/**
 * `npm run bench`: GET /account/status and GET /transactions (an account with a few hundred
 * orders) beside a bare Fastify route, measured in the same run on loopback with autocannon.
 * Each target runs for a fixed time, so the whole run ends by itself (~40 s).
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
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

async function measure(target: string, url: string, headers: Record<string, string>): Promise<Row> {
  const run = (duration: number) =>
    autocannon({
      url,
      connections: CONNECTIONS,
      duration,
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
  await run(2); // warm-up: JIT, connection pools, caches
  const result = await run(SECONDS);
  return {
    target,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

async function main() {
  const url = await databaseUrl();
  console.log(
    `bench: ${SECONDS} s per target, ${CONNECTIONS} connections, ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}`,
  );
  console.log("seeding an account with orders…");
  const { child, ready } = await startServers(url);
  console.log(`database: ${ready.database}${url ? ` (${new URL(url).host})` : ""}`);
  const auth = { authorization: `Bearer ${ready.token}` };
  try {
    const rows: Row[] = [];
    rows.push(await measure("bare Fastify route", `http://127.0.0.1:${ready.barePort}/bare`, {}));
    rows.push(await measure("GET /healthz", `http://127.0.0.1:${ready.appPort}/healthz`, {}));
    rows.push(await measure("GET /account/status", `http://127.0.0.1:${ready.appPort}/account/status`, auth));
    rows.push(await measure("GET /transactions", `http://127.0.0.1:${ready.appPort}/transactions`, auth));
    const bare = rows[0]!.rps;
    console.log("");
    console.log(
      `${"target".padEnd(22)}${"req/s".padStart(10)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"of bare".padStart(10)}${"errors".padStart(8)}`,
    );
    for (const row of rows) {
      console.log(
        `${row.target.padEnd(22)}${row.rps.toFixed(0).padStart(10)}${String(row.p50).padStart(9)}${String(row.p99).padStart(9)}${`${((row.rps / bare) * 100).toFixed(0)}%`.padStart(10)}${String(row.errors).padStart(8)}`,
      );
    }
    const failing = rows
      .filter((row) => row.target.startsWith("GET /account") || row.target.startsWith("GET /transactions"))
      .filter((row) => row.rps / bare < GOAL || row.errors > 0);
    console.log(
      failing.length === 0
        ? `\ngoal met: every API target ≥ ${GOAL * 100}% of the bare route, no errors`
        : `\ngoal missed by: ${failing.map((row) => row.target).join(", ")}`,
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
