import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "./client.ts";

export interface TestDatabase extends Database {
  /** The connection string of the throw-away PostgreSQL database (undefined on PGlite). */
  url: string | undefined;
}

/**
 * A fresh, migrated database for one test file. With DATABASE_URL set, a throw-away database is
 * created on that server (so tests never see each other's rows) and dropped by close();
 * otherwise an in-memory PGlite.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    const database = await openDatabase({});
    return { ...database, url: undefined };
  }
  const name = `bytetoll_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 5 });
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
