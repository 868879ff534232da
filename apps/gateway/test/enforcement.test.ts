import http from "node:http";
import { applyLedgerEntry } from "@bytetoll/db";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Tariff } from "../src/base/tariff.ts";
import { commitBatch, makeBatch } from "../src/billing/flush.ts";
import type { Gateway } from "../src/gateway.ts";
import {
  balanceOf,
  basic,
  openTunnel,
  rawExchange,
  seedUser,
  startGateway,
  usageOf,
} from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

let database: TestDatabase;
let gateway: Gateway;
let origin: TestOrigin;

const BALANCE = 300_000;
const DOWNLOAD = 20_000_000;
/** What may slip through after the balance is used up: a few socket reads per direction. */
const OVERSHOOT_BOUND = 512 * 1024;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startGateway(database, { cacheTtlMs: 0 });
  origin = await startOrigin();
});
afterAll(async () => {
  await gateway.close();
  await origin.close();
  await database.close();
});

describe("balance enforcement", () => {
  it("cuts a CONNECT tunnel once a small balance is used up, and refuses the next one", async () => {
    const user = await seedUser(database, BALANCE);
    const tunnel = await openTunnel(
      gateway.httpPort,
      basic(user.username, user.password),
      `127.0.0.1:${origin.port}`,
    );
    let received = 0;
    tunnel.on("data", (chunk: Buffer) => {
      received += chunk.length;
    });
    const closed = new Promise((resolve) => tunnel.on("close", resolve));
    tunnel.write("GET /bytes/20000000 HTTP/1.1\r\nHost: origin\r\n\r\n");
    await closed;
    expect(received).toBeLessThan(BALANCE + OVERSHOOT_BOUND);
    await gateway.flush();
    const [row] = await usageOf(database, user.userId);
    expect(row?.bytes).toBeGreaterThanOrEqual(BALANCE);
    expect(row?.bytes).toBeLessThan(BALANCE + OVERSHOOT_BOUND);
    expect(await balanceOf(database, user.userId)).toBe(BALANCE - (row?.bytes ?? 0));
    const next = await rawExchange(
      gateway.httpPort,
      `CONNECT 127.0.0.1:${origin.port} HTTP/1.1\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
    );
    expect(next.status).toBe(402);
    expect(next.headers["x-bytetoll-error"]).toBe("balance_exhausted");
  });

  it("cuts a plain HTTP download once a small balance is used up", async () => {
    const user = await seedUser(database, BALANCE);
    const received = await new Promise<number>((resolve) => {
      const req = http.request({
        host: "127.0.0.1",
        port: gateway.httpPort,
        path: `http://127.0.0.1:${origin.port}/bytes/${DOWNLOAD}`,
        headers: { "Proxy-Authorization": basic(user.username, user.password) },
      });
      let bytes = 0;
      req.on("response", (res) => {
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("close", () => resolve(bytes));
      });
      req.on("error", () => resolve(bytes));
      req.end();
    });
    expect(received).toBeLessThan(BALANCE + OVERSHOOT_BOUND);
    await gateway.flush();
    const [row] = await usageOf(database, user.userId);
    expect(row?.bytes).toBeLessThan(BALANCE + OVERSHOOT_BOUND);
  });

  it("closes live connections at the flush that sees the balance used up elsewhere", async () => {
    const user = await seedUser(database, 5_000_000);
    const tunnel = await openTunnel(
      gateway.httpPort,
      basic(user.username, user.password),
      `127.0.0.1:${origin.port}`,
    );
    const closed = new Promise((resolve) => tunnel.on("close", resolve));
    // Another gateway instance (or an operator) used the rest of the balance.
    await applyLedgerEntry(database.db, {
      userId: user.userId,
      kind: "adjustment",
      reference: `used-elsewhere-${user.userId}`,
      deltaBytes: -5_000_000,
    });
    expect(tunnel.destroyed).toBe(false);
    await gateway.flush();
    await closed;
  });
});

describe("flushing", () => {
  it("commits a batch once even when it is sent twice", async () => {
    const user = await seedUser(database, 1_000_000);
    const batch = makeBatch(
      [
        {
          userId: user.userId,
          subuserId: null,
          day: "2026-03-01",
          domain: "a.test",
          proxyType: "mobile",
          bytes: 1234,
          requests: 2,
        },
      ],
      new Tariff({ pricePerGbUsd: 3, dcPricePerGbUsd: 0.3 }),
    );
    expect((await commitBatch(database, batch))?.get(user.userId)).toBe(1_000_000 - 1234);
    expect(await commitBatch(database, batch)).toBeNull();
    expect(await usageOf(database, user.userId)).toEqual([
      { domain: "a.test", proxyType: "mobile", bytes: 1234, requests: 2 },
    ]);
    expect(await balanceOf(database, user.userId)).toBe(1_000_000 - 1234);
  });

  it("keeps usage when a flush fails and commits it exactly once on retry", async () => {
    const user = await seedUser(database, 1_000_000);
    const response = await rawExchange(
      gateway.httpPort,
      `GET http://127.0.0.1:${origin.port}/bytes/777 HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
    );
    expect(response.status).toBe(200);
    await database.query("ALTER TABLE usage_batches RENAME TO usage_batches_away");
    try {
      expect(await gateway.flush()).toBe(false);
      // More traffic while the database refuses: it waits in one batch behind the failed one.
      for (let i = 0; i < 2; i++) {
        const more = await rawExchange(
          gateway.httpPort,
          `GET http://127.0.0.1:${origin.port}/bytes/777 HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
        );
        expect(more.status).toBe(200);
        expect(await gateway.flush()).toBe(false);
      }
    } finally {
      await database.query("ALTER TABLE usage_batches_away RENAME TO usage_batches");
    }
    expect(await usageOf(database, user.userId)).toEqual([]);
    expect(await gateway.flush()).toBe(true);
    const [row] = await usageOf(database, user.userId);
    expect(row?.requests).toBe(3);
    expect(row?.bytes).toBeGreaterThan(3 * 777);
    const [batches] = await database.query<{ n: string }>(
      "SELECT count(*) AS n FROM ledger_entries WHERE user_id = $1 AND kind = 'usage'",
      [user.userId],
    );
    expect(Number(batches?.n)).toBe(2);
    expect(await balanceOf(database, user.userId)).toBe(1_000_000 - (row?.bytes ?? 0));
    const failures = await gateway.metricsRegistry.getSingleMetricAsString(
      "bytetoll_gateway_flush_failures_total",
    );
    expect(failures).toMatch(/flush_failures_total [3-9]/);
  });

  it("flushes on its own timer and on a graceful stop", async () => {
    const timed = await startGateway(database, { flushIntervalMs: 50 });
    const user = await seedUser(database, 1_000_000);
    const get = () =>
      rawExchange(
        timed.httpPort,
        `GET http://127.0.0.1:${origin.port}/bytes/10 HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
      );
    await get();
    // The timer may flush mid-exchange (request head first, response later): wait until it has
    // committed every byte this gateway metered (only this test's user goes through it).
    await vi.waitFor(
      async () => expect((await usageOf(database, user.userId))[0]?.bytes).toBe(timed.meteredBytes),
      { timeout: 10_000, interval: 25 },
    );
    const rows = await usageOf(database, user.userId);
    expect(rows[0]?.requests).toBe(1);

    const stopping = await startGateway(database, { flushIntervalMs: 600_000 });
    const before = rows[0]?.bytes ?? 0;
    await rawExchange(
      stopping.httpPort,
      `GET http://127.0.0.1:${origin.port}/bytes/10 HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
    );
    await stopping.close();
    await timed.close();
    const [after] = await usageOf(database, user.userId);
    expect(after?.requests).toBe(2);
    expect(after?.bytes).toBe(before * 2);
  });
});
