// For tests of a migration on an existing install: an empty database, migrated up to just before
// the migration under test, given old-shape rows, then migrated the rest of the way.
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { migrationsFolder } from "./client.ts";

/** A copy of the migrations folder as it was before `tag`: every file, the journal without that
 * entry and those after it (the caller removes the folder). */
export function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(join(tmpdir(), `bytetoll-before-${tag}-`));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  if (at < 0) throw new Error(`no migration ${tag} in the journal`);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

export interface BlankDatabase {
  query(text: string): Promise<Array<Record<string, unknown>>>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

/** An empty database of the kind the tests run on (PGlite, or PostgreSQL with DATABASE_URL). */
export async function blankDatabase(): Promise<BlankDatabase> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    const client = new PGlite();
    return {
      query: async (text) => (await client.query<Record<string, unknown>>(text)).rows,
      migrate: (folder) => migratePglite(drizzlePglite(client), { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const name = `bytetoll_checks_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  pool.on("error", () => {
    // DROP DATABASE … WITH (FORCE) ends a connection the pool is still closing.
  });
  return {
    query: async (text) => (await pool.query(text)).rows,
    migrate: (folder) => migratePg(drizzlePg(pool), { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
