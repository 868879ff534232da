import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { type Database, migrationsFolder, openDatabase } from "./client.ts";

export interface TestDatabase extends Database {
  /** The connection string of the throw-away PostgreSQL database (undefined on PGlite). */
  url: string | undefined;
}

/** A name that changes whenever any migration file changes. */
function migrationsFingerprint(): string {
  const hash = createHash("sha256");
  // The migrator follows the journal, so it is part of the key with every SQL file.
  hash.update(readFileSync(join(migrationsFolder, "meta", "_journal.json")));
  for (const name of readdirSync(migrationsFolder)
    .filter((file) => file.endsWith(".sql"))
    .sort()) {
    hash.update(name).update(readFileSync(join(migrationsFolder, name)));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * Starting an empty PGlite cluster (initdb in WebAssembly) takes seconds; loading a dump of an
 * already migrated one takes a fraction of that. The dump is kept in the temp directory, keyed by
 * the migrations, and shared by every test file and run until a migration changes.
 */
async function migratedPgliteTemplate(): Promise<Blob> {
  const file = join(tmpdir(), `bytetoll-pglite-template-${migrationsFingerprint()}.tar`);
  try {
    return new Blob([readFileSync(file)]);
  } catch {
    // not built yet
  }
  const client = new PGlite();
  await migrate(drizzle(client), { migrationsFolder });
  const dump = await client.dumpDataDir("none");
  await client.close();
  const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file); // atomic: concurrent workers never read a half-written dump
  return dump;
}

/**
 * A fresh, migrated database for one test file. With DATABASE_URL set, a throw-away database is
 * created on that server (so tests never see each other's rows) and dropped by close();
 * otherwise an in-memory PGlite loaded from the migrated template.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    const database = await openDatabase({ loadDataDir: await migratedPgliteTemplate() });
    return { ...database, url: undefined };
  }
  return createThrowawayPostgres(baseUrl, "bytetoll_test", 5);
}

/** The environment variable naming the run's migrated PostgreSQL template database. */
export const POSTGRES_TEMPLATE_ENV = "BYTETOLL_TEST_POSTGRES_TEMPLATE";

/** A migrated database created on the PostgreSQL server at `baseUrl` and dropped by close(). */
export async function createThrowawayPostgres(
  baseUrl: string,
  prefix: string,
  maxConnections: number,
): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const template = process.env[POSTGRES_TEMPLATE_ENV];
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  // A copy of the run's migrated template when there is one (postgres-template.setup.ts);
  // openDatabase then finds every migration applied.
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), maxConnections });
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
