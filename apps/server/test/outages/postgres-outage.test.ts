import { type Database, openDatabase } from "@bytetoll/db";
import { type FaultProxy, startFaultProxy } from "@bytetoll/db/fault-proxy";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../src/app.ts";
import { SERVICE_UNAVAILABLE } from "../../src/errors.ts";
import type { App } from "../../src/types.ts";
import { testConfig } from "../helpers/test-app.ts";
import { type Customer, customerWithoutEmail } from "../modules/orders/helpers.ts";

const { DATABASE_URL } = process.env;

describe.skipIf(!DATABASE_URL)("the API while PostgreSQL is away", () => {
  let testDatabase: TestDatabase;
  let proxy: FaultProxy;
  let database: Database;
  let app: App;
  let alice: Customer;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    const url = new URL(testDatabase.url ?? "");
    proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port || 5432) });
    // The app reaches PostgreSQL only through the proxy, so cutting it is the database going away.
    database = await openDatabase({
      databaseUrl: proxy.urlFor(url.toString()),
      migrate: false,
      maxConnections: 2,
    });
    const config = testConfig();
    app = await buildApp({ config, database, logger: false });
    app.get("/test/slow-query", async () => {
      await database.query("SELECT pg_sleep(10) AS slow_query_probe");
      return { success: true };
    });
    await app.ready();
    alice = await customerWithoutEmail(testDatabase, config.JWT_SECRET, "alice@example.com");
  });
  afterAll(async () => {
    proxy?.restore();
    await app?.close();
    await database?.close();
    await proxy?.close();
    await testDatabase?.close();
  });

  const status = () => app.inject({ method: "GET", url: "/transactions", headers: alice.headers });
  const order = () =>
    app.inject({
      method: "POST",
      url: "/transactions",
      headers: alice.headers,
      payload: { amount: 15, network_type: "solana" },
    });

  it("answers 503 with a message to retry, says not ready, and recovers when it returns", async () => {
    expect((await status()).statusCode).toBe(200);

    proxy.cut();
    // The pool learns of its cut connections from their sockets: wait until readiness says so.
    await expect
      .poll(async () => (await app.inject({ method: "GET", url: "/readyz" })).statusCode, {
        timeout: 5_000,
        interval: 20,
      })
      .toBe(503);
    for (const response of [await status(), await order(), await status()]) {
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toEqual({ success: false, message: SERVICE_UNAVAILABLE });
      expect(response.headers["retry-after"]).toBeDefined();
    }
    expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(503);
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);

    proxy.restore();
    expect((await status()).statusCode).toBe(200);
    expect((await order()).statusCode).toBe(201);
    expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
  });

  it("answers 503 when an administrator terminates the query's connection (57P01)", async () => {
    proxy.restore();
    const pending = app.inject({ method: "GET", url: "/test/slow-query" });
    const probe =
      "SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE query LIKE '%AS slow_query_probe%' AND pid <> pg_backend_pid()";
    // The probe finds the query once the request has reached PostgreSQL.
    const terminated = await vi.waitUntil(
      async () => {
        const rows = await testDatabase.query<{ done: boolean }>(probe);
        return rows.length > 0 && rows;
      },
      { timeout: 5_000, interval: 20 },
    );
    expect(terminated).toEqual([{ done: true }]);
    const response = await pending;
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json()).toEqual({ success: false, message: SERVICE_UNAVAILABLE });
  });
});
