import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyLedgerEntry, type Database, hashSecret, openDatabase, schema } from "@bytetoll/db";
import { createThrowawayPostgres } from "@bytetoll/db/testing";
import { freePort } from "@bytetoll/gateway/testing";
import { idleTunnels, type Path, smallRequests } from "../gateway/load.ts";
import {
  childOf,
  firstAnswer,
  memoryOf,
  serverTreePeakSampler,
  startTinyproxy,
  stopped,
  TINYPROXY,
} from "./processes.ts";

/**
 * `npm run bench:footprint`: resident memory of the product's server process as `npm start` runs
 * it — after start, idle, holding 1,000 idle proxy tunnels and under 100 keep-alive clients
 * through its gateway — on the embedded database and on PostgreSQL, beside tinyproxy under the
 * same load. A figure to read, not a timed test. FOOTPRINT_IDLE_S / FOOTPRINT_LOAD_S shorten it.
 */

const IDLE_S = Number(process.env.FOOTPRINT_IDLE_S ?? 30);
const LOAD_S = Number(process.env.FOOTPRINT_LOAD_S ?? 60);
const CLIENTS = 100;
const IDLE_TUNNELS = 1000;
const POSTGRES_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const root = fileURLToPath(new URL("../..", import.meta.url));
const USERNAME = "bench";
const PASSWORD = "bench-password";
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

interface Figures {
  firstStartMs?: number;
  firstStartPeak?: number;
  firstStartTreePeak?: number;
  firstStartAllPeak?: number;
  startMs?: number;
  startPeak?: number;
  startTreePeak?: number;
  startAllPeak?: number;
  idle?: number;
  tunnels?: number;
  loadMax?: number;
  loadRps?: number;
  lifetimePeak?: number;
  wrapper?: number;
}

interface Product {
  child: ChildProcess;
  pid: number;
  gatewayPort: number;
  startMs: number;
  /** Highest summed RSS of the server and the processes it ran, until the first answer. */
  treePeak: number;
  /** Highest summed PSS of those and `npm start`'s wrapper: all the product's processes. */
  allPeak: number;
}

/** Starts the product as an operator does (`npm start`, or the dev loader) and waits for /healthz. */
async function startProduct(dataDir: string, databaseUrl: string | undefined, dev = false): Promise<Product> {
  const [port, gatewayPort, gatewayTlsPort] = [await freePort(), await freePort(), await freePort()];
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    GATEWAY_HTTP_PORT: String(gatewayPort),
    GATEWAY_SOCKS_PORT: "0",
    GATEWAY_HTTPS_PORT: String(gatewayTlsPort),
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    // The origin is on loopback, and every load client comes from 127.0.0.1.
    EGRESS_ALLOW: "127.0.0.0/8",
    GATEWAY_MAX_CONNECTIONS_PER_IP: String(IDLE_TUNNELS * 2),
    LOG_FORMAT: "json",
  };
  const command = dev
    ? [join(root, "node_modules/.bin/tsx"), join(root, "apps/server/src/server.ts")]
    : [process.execPath, join(root, "scripts/start.mjs")];
  const started = process.hrtime.bigint();
  // The server's log, to read when a run fails: the last one is kept in the temp directory.
  const log = openSync(join(tmpdir(), "bench-footprint-server.log"), "w");
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: root,
    env,
    stdio: ["ignore", log, "inherit"],
  });
  closeSync(log);
  const treePeak = serverTreePeakSampler(child.pid as number);
  const startMs = await firstAnswer(`http://127.0.0.1:${port}/healthz`, started, child);
  const pid = childOf(child.pid as number);
  if (pid === null) throw new Error("npm start runs no server process");
  const peaks = treePeak();
  return { child, pid, gatewayPort, startMs, treePeak: peaks.rss, allPeak: peaks.allPss };
}

/** One customer with a balance and proxy credentials, as the bench's load uses them. */
async function seed(database: Database): Promise<void> {
  const [user] = await database.db.insert(schema.users).values({ email: "bench@example.com" }).returning();
  if (!user) throw new Error("seeding failed");
  await database.db.insert(schema.proxyCredentials).values({
    userId: user.id,
    username: USERNAME,
    passwordHash: hashSecret(PASSWORD),
    passwordEnc: "unused",
  });
  await applyLedgerEntry(database.db, {
    userId: user.id,
    kind: "purchase",
    reference: "bench",
    deltaBytes: 1e15,
  });
}

/** RSS with 1,000 CONNECT tunnels open and idle, then closed again. */
async function withIdleTunnels(path: Path, originPort: number, pid: number): Promise<number> {
  const sockets = await idleTunnels(path, originPort, IDLE_TUNNELS);
  await sleep(2);
  const { rss } = memoryOf(pid);
  for (const socket of sockets) socket.destroy();
  await sleep(2);
  return rss;
}

/** 100 keep-alive clients for LOAD_S seconds; the highest RSS sampled and the requests/s. */
async function underLoad(path: Path, originPort: number, pid: number): Promise<{ max: number; rps: number }> {
  let max = 0;
  const sampler = setInterval(() => {
    max = Math.max(max, memoryOf(pid).rss);
  }, 500);
  let requests = 0;
  const started = Date.now();
  try {
    while (Date.now() - started < LOAD_S * 1000) {
      await smallRequests(path, originPort, CLIENTS, 50);
      requests += CLIENTS * 50;
    }
  } finally {
    clearInterval(sampler);
  }
  return { max: Math.max(max, memoryOf(pid).rss), rps: requests / ((Date.now() - started) / 1000) };
}

/** The measured life of one product process on an already seeded database. */
async function measureRunning(dataDir: string, databaseUrl: string | undefined, originPort: number) {
  const product = await startProduct(dataDir, databaseUrl);
  const figures: Figures = {
    startMs: product.startMs,
    startPeak: memoryOf(product.pid).peak,
    startTreePeak: product.treePeak,
    startAllPeak: product.allPeak,
  };
  try {
    await sleep(IDLE_S);
    figures.idle = memoryOf(product.pid).rss;
    figures.wrapper = memoryOf(product.child.pid as number).rss;
    const path: Path = {
      name: "product",
      port: product.gatewayPort,
      proxy: true,
      authorization: basic(USERNAME, PASSWORD),
    };
    await smallRequests(path, originPort, CLIENTS, 20); // warm-up, as a first customer would
    figures.tunnels = await withIdleTunnels(path, originPort, product.pid);
    const load = await underLoad(path, originPort, product.pid);
    figures.loadMax = load.max;
    figures.loadRps = load.rps;
    figures.lifetimePeak = memoryOf(product.pid).peak;
  } finally {
    await stopped(product.child);
  }
  return figures;
}

async function embedded(originPort: number): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-footprint-"));
  try {
    process.stdout.write("embedded: first start on an empty DATA_DIR…\n");
    const first = await startProduct(dataDir, undefined);
    const firstPeak = memoryOf(first.pid).peak;
    await stopped(first.child);
    const database = await openDatabase({ dataDir: join(dataDir, "pglite") });
    await seed(database);
    await database.close();
    process.stdout.write(`embedded: start, ${IDLE_S} s idle, tunnels, ${LOAD_S} s load…\n`);
    const figures = await measureRunning(dataDir, undefined, originPort);
    return {
      ...figures,
      firstStartMs: first.startMs,
      firstStartPeak: firstPeak,
      firstStartTreePeak: first.treePeak,
      firstStartAllPeak: first.allPeak,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgres(originPort: number): Promise<Figures | null> {
  const database = await createThrowawayPostgres(POSTGRES_URL, "bytetoll_footprint", 2).catch(() => null);
  if (!database) return null;
  const dataDir = mkdtempSync(join(tmpdir(), "bench-footprint-pg-"));
  try {
    await seed(database);
    process.stdout.write(`PostgreSQL: start, ${IDLE_S} s idle, tunnels, ${LOAD_S} s load…\n`);
    return await measureRunning(dataDir, database.url, originPort);
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The development path (TypeScript loader), for the before/after of start time and memory. */
async function devStart(): Promise<{ startMs: number; idle: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-footprint-dev-"));
  try {
    const first = await startProduct(dataDir, undefined, true); // creates the cluster
    await stopped(first.child);
    process.stdout.write(`TypeScript loader (development): start, ${IDLE_S} s idle…\n`);
    const product = await startProduct(dataDir, undefined, true);
    await sleep(IDLE_S);
    const idle = memoryOf(product.pid).rss;
    await stopped(product.child);
    return { startMs: product.startMs, idle };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function tinyproxyFigures(originPort: number): Promise<Figures | null> {
  const tinyproxy = await startTinyproxy();
  if (!tinyproxy) return null;
  try {
    process.stdout.write(`tinyproxy: idle, tunnels, ${LOAD_S} s load…\n`);
    const pid = tinyproxy.child.pid as number;
    const path: Path = {
      name: "tinyproxy",
      port: tinyproxy.port,
      proxy: true,
      authorization: basic("bench", PASSWORD),
    };
    const figures: Figures = { idle: memoryOf(pid).rss };
    figures.tunnels = await withIdleTunnels(path, originPort, pid);
    const load = await underLoad(path, originPort, pid);
    figures.loadMax = load.max;
    figures.loadRps = load.rps;
    figures.lifetimePeak = memoryOf(pid).peak;
    return figures;
  } finally {
    await stopped(tinyproxy.child);
    rmSync(tinyproxy.dir, { recursive: true, force: true });
  }
}

function startOrigin(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "bench/gateway/origin-process.ts")], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the origin exited with ${code}`)));
    child.on("message", (message: { type: string; port: number }) => {
      if (message.type === "ready") resolve({ child, port: message.port });
    });
  });
}

function machine(): string {
  const model = /model name\s*:\s*(.+)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? "unknown CPU";
  return `${model}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}`;
}

function row(label: string, values: Array<number | undefined | null>, digits = 0): string {
  const cells = values.map((v) => (typeof v === "number" ? v.toFixed(digits) : "—").padStart(12));
  return `${label.padEnd(52)}${cells.join("")}`;
}

async function main(): Promise<void> {
  // Built first, so the starts measured are starts, not builds.
  const build = spawn("npm", ["run", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  await new Promise((resolve) => build.once("exit", resolve));
  const origin = await startOrigin();
  try {
    console.log(`ByteToll footprint — ${machine()}\n`);
    const dev = await devStart();
    const columns = [
      await embedded(origin.port),
      await postgres(origin.port),
      await tinyproxyFigures(origin.port),
    ];
    const pick = (key: keyof Figures) => columns.map((c) => c?.[key]);
    console.log(
      `\n${row("", [])}${["embedded", "PostgreSQL", "tinyproxy"].map((h) => h.padStart(12)).join("")}`,
    );
    console.log(
      row(
        "first start, empty DATA_DIR: to first answer (s)",
        pick("firstStartMs").map((v) => v && v / 1000),
        1,
      ),
    );
    console.log(row("first start: server's peak RSS (MB)", pick("firstStartPeak")));
    console.log(row("  with the processes it ran, at once (MB)", pick("firstStartTreePeak")));
    console.log(row("  all of npm start's processes at once, PSS (MB)", pick("firstStartAllPeak")));
    console.log(
      row(
        "start: to first answer (s)",
        pick("startMs").map((v) => v && v / 1000),
        1,
      ),
    );
    console.log(row("start: server's peak RSS (MB)", pick("startPeak")));
    console.log(row("  with the processes it ran, at once (MB)", pick("startTreePeak")));
    console.log(row("  all of npm start's processes at once, PSS (MB)", pick("startAllPeak")));
    console.log(row(`idle ${IDLE_S} s: RSS (MB)`, pick("idle")));
    console.log(row(`${IDLE_TUNNELS} idle proxy tunnels: RSS (MB)`, pick("tunnels")));
    console.log(row(`${CLIENTS} keep-alive clients, ${LOAD_S} s: max RSS (MB)`, pick("loadMax")));
    console.log(row("  requests/s through the proxy", pick("loadRps")));
    console.log(row("peak RSS over the whole run (MB)", pick("lifetimePeak")));
    console.log(row("npm start's wrapper process: RSS (MB)", pick("wrapper")));
    console.log(
      `\nTypeScript loader (development, embedded): to first answer ${(dev.startMs / 1000).toFixed(1)} s, ` +
        `idle RSS ${dev.idle.toFixed(0)} MB (server process; tsx's esbuild service not counted)`,
    );
    if (!columns[1]) console.log(`PostgreSQL skipped: ${POSTGRES_URL} is not reachable (set DATABASE_URL)`);
    if (!columns[2]) console.log(`tinyproxy skipped: ${TINYPROXY} is not installed`);
  } finally {
    origin.child.removeAllListeners("exit");
    origin.child.disconnect();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
