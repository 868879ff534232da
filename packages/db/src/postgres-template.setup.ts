import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase } from "./client.ts";
import { POSTGRES_TEMPLATE_ENV } from "./testing.ts";

/**
 * Vitest global setup for the projects whose tests open databases. On PostgreSQL (DATABASE_URL
 * set) each test database used to run every migration (about a second each, hundreds per run);
 * this migrates one template database per run, and `createThrowawayPostgres` copies it instead
 * (`CREATE DATABASE … TEMPLATE`, a fraction of that). Test workers inherit the template's name
 * through the environment; the run that made it drops it at the end. Without DATABASE_URL it does
 * nothing (PGlite tests load a migrated dump instead).
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const baseUrl = process.env.DATABASE_URL;
  // Another project's setup in this run (or the caller) already made one: share it.
  if (!baseUrl || process.env[POSTGRES_TEMPLATE_ENV]) return undefined;
  const name = `bytetoll_template_${randomBytes(6).toString("hex")}`;
  await adminQuery(baseUrl, `CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  // Two connections: one holds the migration lock while the other migrates.
  const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 2 });
  await database.close();
  process.env[POSTGRES_TEMPLATE_ENV] = name;
  return async () => {
    delete process.env[POSTGRES_TEMPLATE_ENV];
    await adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
}

async function adminQuery(baseUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
