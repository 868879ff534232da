import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { unpackClusterTemplate } from "./cluster-template.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import * as schema from "./schema.ts";
import { type ListenHandlers, sharedListeners } from "./shared-listeners.ts";

/** One type for both drivers: PGlite's drizzle database speaks the same query builder and its
 * raw results also carry `rows`, so code above this package never branches on the driver. */
export type Db = NodePgDatabase<typeof schema>;

/** An open transaction of either driver. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Raw SQL with positional parameters; returns rows. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** LISTEN on a channel for as long as the returned stop function is not called. */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export { DataDirInUseError, lockDataDir } from "./data-dir-lock.ts";
export type { ListenHandlers } from "./shared-listeners.ts";

export const migrationsFolder = fileURLToPath(new URL("../migrations", import.meta.url));

export interface OpenOptions {
  /** postgres://… — when set, PostgreSQL is used; otherwise PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; omitted means in memory. One process at a time may open it: a
   * second one gets DataDirInUseError naming the process that holds it. */
  dataDir?: string | undefined;
  /** In-memory PGlite started from this dump (PGlite's dumpDataDir) instead of an empty cluster. */
  loadDataDir?: Blob | undefined;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** Apply the checked-in migrations before returning (default true). */
  migrate?: boolean;
}

// Any fixed number shared by every ByteToll process: they take this advisory lock while migrating.
const MIGRATION_LOCK = 726_451_903;
const execFileAsync = promisify(execFile);

export async function openDatabase(options: OpenOptions = {}): Promise<Database> {
  const shouldMigrate = options.migrate ?? true;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.maxConnections ?? 10,
      // Every query here is meant to take milliseconds. JIT compilation and parallel workers pay
      // off only for long ones; a planner estimate gone wide of a small range (the usage totals'
      // correlated key columns) made them cost 8–17 ms of compiling and 20–60 ms of starting
      // workers on a 5 ms "by domain" query at 10 M rollup rows (decision 032).
      options: "-c jit=off -c max_parallel_workers_per_gather=0",
    });
    pool.on("error", () => {
      // An idle client lost its connection; the pool replaces it on next use.
    });
    const db = drizzlePg(pool, { schema });
    const listeners = new Set<() => Promise<void>>();
    const listenShared = sharedListeners((channel, handlers) =>
      listenPostgres(options.databaseUrl as string, channel, handlers),
    );
    if (shouldMigrate) {
      const lockClient = await pool.connect();
      try {
        await lockClient.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
        await migratePg(db, { migrationsFolder });
      } finally {
        await lockClient.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
        lockClient.release();
      }
    }
    return {
      db,
      kind: "postgres",
      async query<T>(text: string, params: unknown[] = []) {
        const result = await pool.query(text, params);
        return result.rows as T[];
      },
      async listen(channel, handlers) {
        const stop = await listenShared(channel, handlers);
        listeners.add(stop);
        return async () => {
          listeners.delete(stop);
          await stop();
        };
      },
      async close() {
        await Promise.all([...listeners].map((stop) => stop()));
        await pool.end();
      },
    };
  }

  const lock = options.dataDir ? lockDataDir(options.dataDir) : null;
  let client: PGlite;
  try {
    if (options.dataDir) await createPgliteClusterOnce(options.dataDir);
    client = options.dataDir
      ? new PGlite(options.dataDir, { startParams: PGLITE_START_PARAMS })
      : new PGlite({ startParams: PGLITE_START_PARAMS, loadDataDir: options.loadDataDir });
    await client.waitReady;
    if (shouldMigrate) {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
    }
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    async query<T>(text: string, params: unknown[] = []) {
      const result = await client.query<T>(text, params);
      return result.rows;
    },
    async listen(channel, handlers) {
      const unlisten = await client.listen(channel, (payload) => handlers.notification(payload));
      handlers.live(true);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    async close() {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/**
 * PGlite's PostgreSQL settings. Its default shared_buffers (128 MB) is touched at start-up and
 * kept resident by the WebAssembly heap; one self-hosted shop's working set fits in 16 MB, and
 * the operating system's page cache sits behind it either way.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

const pgliteEntry = createRequire(import.meta.url).resolve("@electric-sql/pglite");

/**
 * A freshly initialised cluster, as `npm run db:pglite-template` dumps it: a new data directory
 * is loaded from it instead of running initdb. Keyed by the PGlite version, whose PostgreSQL
 * must have written it; with no template for the installed version, initdb runs instead.
 */
export function pgliteClusterTemplate(): string {
  const packageJson = path.join(path.dirname(pgliteEntry), "../package.json");
  const { version } = JSON.parse(readFileSync(packageJson, "utf8")) as { version: string };
  return fileURLToPath(new URL(`../pglite-cluster/${version}.tar.gz`, import.meta.url));
}

/**
 * A new data directory is made in a sibling directory renamed into place, so a start interrupted
 * half-way leaves no half-made cluster behind. From the shipped template its files are written
 * straight from the archive, as PGlite's own loadDataDir would write them, without starting a
 * second PostgreSQL: the first start costs no more memory than any later one. Without a template
 * (a PGlite upgrade not yet followed by `npm run db:pglite-template`) initdb runs, in a
 * short-lived child process: PGlite's initdb snapshots and restores a 128 MB WebAssembly heap
 * for every step, the process peaks near 750 MB and keeps most of it.
 */
async function createPgliteClusterOnce(dataDir: string): Promise<void> {
  if (existsSync(path.join(dataDir, "PG_VERSION"))) return;
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const staging = `${dataDir}.new-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const template = pgliteClusterTemplate();
  try {
    if (existsSync(template)) await unpackClusterTemplate(template, staging);
    else await initdbInChild(staging);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  if (existsSync(dataDir)) rmdirSync(dataDir); // only an empty one: anything else is not ours to replace
  renameSync(staging, dataDir);
}

async function initdbInChild(staging: string): Promise<void> {
  const script = [
    "const [url, dir, params] = JSON.parse(process.argv[1]);",
    "const { PGlite } = await import(url);",
    "const client = new PGlite(dir, { startParams: params });",
    "await client.waitReady;",
    "await client.close();",
  ].join("\n");
  const args = [pathToFileURL(pgliteEntry).href, staging, PGLITE_START_PARAMS];
  await execFileAsync(process.execPath, ["--input-type=module", "-e", script, JSON.stringify(args)]);
}

const RECONNECT_MS = { first: 100, max: 5_000 };

/** A dedicated connection (LISTEN holds its session, so not a pooled one) that reconnects with
 * backoff and says when notifications may have been missed. */
async function listenPostgres(
  connectionString: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => Promise<void>> {
  let current: pg.Client | null = null;
  let stopped = false;
  let delay = RECONNECT_MS.first;
  let timer: NodeJS.Timeout | undefined;

  const lost = (client: pg.Client) => {
    if (current !== client) return;
    current = null;
    client.end().catch(() => {});
    handlers.live(false);
    if (stopped) return;
    timer = setTimeout(connect, delay).unref();
    delay = Math.min(delay * 2, RECONNECT_MS.max);
  };

  async function connect() {
    const client = new pg.Client({ connectionString });
    current = client;
    client.on("notification", (message) => {
      if (message.channel === channel) handlers.notification(message.payload ?? "");
    });
    client.on("error", () => lost(client));
    client.on("end", () => lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch {
      lost(client);
      return;
    }
    if (current !== client) return;
    delay = RECONNECT_MS.first;
    handlers.live(true);
  }

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    const client = current;
    current = null;
    await client?.end().catch(() => {});
  };
}
