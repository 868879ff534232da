import { type Database, openDatabase } from "@bytetoll/db";
import { type FaultProxy, startFaultProxy } from "@bytetoll/db/fault-proxy";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import {
  balanceOf,
  basic,
  eventually,
  getOver,
  leaseOvershoots,
  openTunnel,
  rawExchange,
  seedUser,
  startGateway,
  usageOf,
} from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

const BALANCE = 1_000_000_000;

let database: TestDatabase;
let fault: FaultProxy;
let gatewayDatabase: Database;
let gateway: Gateway;
let origin: TestOrigin;

beforeAll(async () => {
  if (!process.env.DATABASE_URL) return;
  database = await createTestDatabase();
  const url = new URL(database.url as string);
  fault = await startFaultProxy({ host: url.hostname, port: Number(url.port || 5432) });
  // The gateway reaches PostgreSQL only through the fault proxy; the test keeps a direct line.
  gatewayDatabase = await openDatabase({ databaseUrl: fault.urlFor(database.url as string), migrate: false });
  gateway = await startGateway(
    { ...gatewayDatabase, url: undefined },
    { cacheTtlMs: 100, flushIntervalMs: 100 },
  );
  origin = await startOrigin();
});
afterAll(async () => {
  if (!process.env.DATABASE_URL) return;
  await gateway.close();
  await gatewayDatabase.close();
  await fault.close();
  await origin.close();
  await database.close();
});

const plainGet = (authorization: string, bytes: number) =>
  rawExchange(
    gateway.httpPort,
    `GET http://127.0.0.1:${origin.port}/bytes/${bytes} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${authorization}\r\n\r\n`,
  );

describe("a PostgreSQL outage", () => {
  it.skipIf(!process.env.DATABASE_URL)(
    "relays within the leases held, refuses whom it cannot authenticate, and bills everything once afterwards",
    async () => {
      const user = await seedUser(database, BALANCE);
      const stranger = await seedUser(database, BALANCE);
      const tunnel = await openTunnel(
        gateway.httpPort,
        basic(user.username, user.password),
        `127.0.0.1:${origin.port}`,
      );
      await getOver(tunnel, "/bytes/500000", 500_000);
      expect(await gateway.flush()).toBe(true);

      fault.cut();
      // Waits out the credential cache's 100 ms lifetime (a clock, not an event: nothing happens
      // when a cached entry turns stale), so the requests below must do without the database.
      await new Promise((r) => setTimeout(r, 300));
      // The live tunnel goes on within its lease.
      await getOver(tunnel, "/bytes/1000000", 1_000_000);
      await getOver(tunnel, "/bytes/1000000", 1_000_000);
      // A new connection of a known user: its credential is served from the cache.
      const known = await plainGet(basic(user.username, user.password), 100_000);
      expect(known.status).toBe(200);
      expect(known.body.length).toBe(100_000);
      // A user this gateway never saw cannot be checked: no relaying for them.
      const refused = await plainGet(basic(stranger.username, stranger.password), 100).catch(() => null);
      expect(refused?.status ?? 0).not.toBe(200);
      expect(await gateway.flush()).toBe(false);
      expect(await usageOf(database, user.userId)).toEqual([
        expect.objectContaining({ requests: 1, bytes: expect.any(Number) }),
      ]);

      fault.restore();
      tunnel.destroy();
      await eventually(async () => origin.openSockets() <= 1, "the tunnel's origin socket to close");
      let billed = 0;
      await eventually(async () => {
        if (!(await gateway.flush())) return false;
        billed = (await usageOf(database, user.userId)).reduce((sum, row) => sum + row.bytes, 0);
        return billed >= origin.bytes();
      }, "usage of the outage to be committed");
      console.log(`database outage: origin saw ${origin.bytes()} B, billed ${billed} B`);
      expect(billed).toBe(origin.bytes());
      expect(await balanceOf(database, user.userId)).toBe(BALANCE - billed);
      expect(await usageOf(database, stranger.userId)).toEqual([]);
      expect(await leaseOvershoots(gateway)).toBe(0);
    },
    30_000,
  );

  it.skipIf(!process.env.DATABASE_URL)(
    "a flush asked for while another is committing also commits what was metered in between",
    async () => {
      const user = await seedUser(database, BALANCE);
      const before = origin.bytes();
      expect((await plainGet(basic(user.username, user.password), 1_000)).status).toBe(200);
      // Hold the user's row so the first flush, which debits that user, waits mid-commit.
      const blocker = new pg.Client({ connectionString: database.url });
      await blocker.connect();
      try {
        await blocker.query("BEGIN");
        await blocker.query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", [user.userId]);
        const first = gateway.flush();
        expect((await plainGet(basic(user.username, user.password), 2_000)).status).toBe(200);
        const second = gateway.flush();
        await blocker.query("COMMIT");
        expect(await first).toBe(true);
        expect(await second).toBe(true);
      } finally {
        await blocker.end();
      }
      const billed = (await usageOf(database, user.userId)).reduce((sum, row) => sum + row.bytes, 0);
      expect(billed).toBe(origin.bytes() - before);
      expect(await usageOf(database, user.userId)).toEqual([expect.objectContaining({ requests: 2 })]);
    },
    30_000,
  );
});
