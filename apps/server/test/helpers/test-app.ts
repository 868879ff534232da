import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, createThrowawayPostgres, type TestDatabase } from "@bytetoll/db/testing";
import { gatewayHost } from "@bytetoll/gateway";
import { buildApp } from "../../src/app.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { createOutboxMailer, type Mailer } from "../../src/plugins/mail.ts";
import type { App } from "../../src/types.ts";

export const TEST_APP_URL = "http://localhost:3000";

export interface TestApp {
  app: App;
  database: TestDatabase;
  config: Config;
  /** Console lines the dev outbox printed. */
  printed: string[];
  close(): Promise<void>;
}

let dataDirs = 0;

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    APP_URL: TEST_APP_URL,
    JWT_SECRET: "test-secret-test-secret-test-secret-0123",
    // No SPA build unless a test points at one.
    WEB_DIST_DIR: path.join(tmpdir(), "bytetoll-no-web-build"),
    // Each config its own: an embedded gateway keeps its journal and instance id there.
    DATA_DIR: path.join(tmpdir(), `bytetoll-test-data-${process.pid}-${++dataDirs}`),
    ...overrides,
  });
}

/**
 * A real app on its own fresh database (PGlite, or PostgreSQL with DATABASE_URL). Pass another
 * test app's `database` to build a differently configured app over it (cheaper than a new
 * database; closing this app then leaves the database open).
 */
export async function createTestApp(
  overrides: Record<string, string> = {},
  options: {
    mailer?: Mailer;
    beforeReady?: (app: App) => void;
    database?: TestDatabase;
    /** false: an app assembled without the gateway app, as a process that does not host it. */
    gatewayHost?: false;
  } = {},
): Promise<TestApp> {
  const ownsDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase());
  const config = testConfig(overrides);
  const printed: string[] = [];
  const mailer =
    options.mailer ??
    (config.SMTP_URL ? undefined : createOutboxMailer(database, (line) => printed.push(line)));
  const app = await buildApp({
    config,
    database,
    mailer,
    logger: false,
    ...(options.gatewayHost === false ? {} : { gatewayHost }),
  });
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    printed,
    async close() {
      await app.close();
      if (ownsDatabase) await database.close();
    },
  };
}

export interface TwoInstances {
  database: TestDatabase;
  one: TestApp;
  two: TestApp;
  close(): Promise<void>;
}

/**
 * Two apps over one throwaway PostgreSQL database (`prefix`_…, `maxConnections` at most), as two
 * instances behind a load balancer: where shared state (balances, stock, leases) is tested.
 */
export async function createTwoInstances(
  postgresUrl: string,
  prefix: string,
  maxConnections: number,
  overrides: Record<string, string> = {},
): Promise<TwoInstances> {
  const database = await createThrowawayPostgres(postgresUrl, prefix, maxConnections);
  const one = await createTestApp(overrides, { database });
  const two = await createTestApp(overrides, { database });
  return {
    database,
    one,
    two,
    async close() {
      await one.close();
      await two.close();
      await database.close();
    },
  };
}
