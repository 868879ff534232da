import http from "node:http";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import {
  balanceOf,
  basic,
  leaseOvershoots,
  rawExchange,
  type SeededUser,
  seedUser,
  startGateway,
  usageOf,
} from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

const INSTANCES = 3;
const DOWNLOADS = 100;
const DOWNLOAD_BYTES = 2_000_000;
const BALANCE = 50_000_000;
/** Kept small here so the bound says something about a 50 MB balance (production: 256 MiB). */
const LEASE_MAX = 8 * 1024 * 1024;
/** One read (64 KiB) each way per connection may pass before the connection is cut. */
const PER_CONNECTION_SLACK = 2 * 64 * 1024;
/** What an account can overdraw: each instance may run one lease ahead of a renewal in flight,
 * and each connection one read past the moment it is cut. */
const BOUND = INSTANCES * LEASE_MAX + DOWNLOADS * PER_CONNECTION_SLACK;

let database: TestDatabase;
let origin: TestOrigin;

beforeAll(async () => {
  database = await createTestDatabase();
  origin = await startOrigin();
});
afterAll(async () => {
  await origin.close();
  await database.close();
});

/** One plain-HTTP download through a gateway; resolves with the body bytes the client got. */
function download(gateway: Gateway, user: SeededUser): Promise<number> {
  return new Promise((resolve) => {
    let bytes = 0;
    const req = http.request({
      host: "127.0.0.1",
      port: gateway.httpPort,
      path: `http://127.0.0.1:${origin.port}/bytes/${DOWNLOAD_BYTES}`,
      headers: { "Proxy-Authorization": basic(user.username, user.password) },
      agent: false,
    });
    req.on("response", (res) => {
      res.on("data", (chunk: Buffer) => {
        if (res.statusCode === 200) bytes += chunk.length;
      });
      res.on("close", () => resolve(bytes));
      res.on("error", () => resolve(bytes));
    });
    req.on("error", () => resolve(bytes));
    req.end();
  });
}

const plainGet = (gateway: Gateway, user: SeededUser) =>
  rawExchange(
    gateway.httpPort,
    `GET http://127.0.0.1:${origin.port}/bytes/1000 HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
  );

describe("a balance is one budget however many gateway instances spend it", () => {
  it("reclaims the lease of an instance that stopped renewing it (crashed) once it expires", async () => {
    const gateway = await startGateway(database);
    try {
      const user = await seedUser(database, 1_000_000);
      // A crashed instance holds the whole balance: nothing is left to lease.
      await database.query(
        `INSERT INTO balance_leases (instance_id, user_id, bytes, expires_at)
         VALUES ('crashed', $1, 1000000, now() + interval '1 hour')`,
        [user.userId],
      );
      await database.query("UPDATE users SET leased_bytes = 1000000 WHERE id = $1", [user.userId]);
      const refused = await plainGet(gateway, user);
      expect(refused.status).toBe(402);
      expect(refused.headers["x-bytetoll-error"]).toBe("balance_exhausted");
      // Its lease runs out; the next flush of any instance gives it back to the balance.
      await database.query("UPDATE balance_leases SET expires_at = now() - interval '1 second'");
      await gateway.flush();
      expect((await plainGet(gateway, user)).status).toBe(200);
      const [lease] = await database.query<{ instance_id: string }>(
        "SELECT instance_id FROM balance_leases WHERE user_id = $1",
        [user.userId],
      );
      expect(lease?.instance_id).not.toBe("crashed");
    } finally {
      await gateway.close();
    }
  });

  it("three instances and 100 parallel downloads relay no more than the balance plus the bound", async () => {
    const gateways = await Promise.all(
      Array.from({ length: INSTANCES }, () => startGateway(database, { leaseMaxBytes: LEASE_MAX })),
    );
    try {
      const user = await seedUser(database, BALANCE);
      const received = await Promise.all(
        Array.from({ length: DOWNLOADS }, (_, i) => download(gateways[i % INSTANCES] as Gateway, user)),
      );
      const relayed = received.reduce((sum, bytes) => sum + bytes, 0);
      for (const gateway of gateways) await gateway.flush();
      const billed = (await usageOf(database, user.userId)).reduce((sum, row) => sum + row.bytes, 0);
      console.log(
        `shared balance: balance ${BALANCE} B, relayed ${relayed} B (billed ${billed} B), ` +
          `bound ${BOUND} B, overdraft ${relayed - BALANCE} B`,
      );
      expect(relayed).toBeGreaterThan(BALANCE / 2);
      expect(relayed).toBeLessThanOrEqual(BALANCE + BOUND);
      // Everything relayed is billed, and the balance is the ledger's: BALANCE minus the usage.
      expect(billed).toBeGreaterThanOrEqual(relayed);
      expect(await balanceOf(database, user.userId)).toBe(BALANCE - billed);
      // Renewals in flight and run-aheads on three instances: no batch billed past its bound.
      for (const gateway of gateways) expect(await leaseOvershoots(gateway)).toBe(0);
    } finally {
      await Promise.all(gateways.map((gateway) => gateway.close()));
    }
    // Stopped instances gave their leases back: nothing stays reserved.
    const [held] = await database.query<{ leased: string; leases: string }>(
      `SELECT (SELECT coalesce(sum(leased_bytes), 0) FROM users) AS leased,
              (SELECT count(*) FROM balance_leases) AS leases`,
    );
    expect(Number(held?.leased)).toBe(0);
    expect(Number(held?.leases)).toBe(0);
  });
});
