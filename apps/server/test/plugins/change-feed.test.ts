import { applyLedgerEntry } from "@bytetoll/db";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { App } from "../../src/types.ts";
import { bearer } from "../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import {
  balanceBytes,
  type Customer,
  createOrder,
  customer,
  GB,
  sandboxPay,
} from "../modules/orders/helpers.ts";

/**
 * Two instances over one database, as at scale: each caches sessions, API tokens, balances and
 * order pages (decision 006), and a write through either one, or straight into the database as
 * the gateway's flush does it, must reach the other's answers.
 */
const ADMIN_TOKEN = "admin-token-0123456789abcdef";

let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  a = await createTestApp({ ADMIN_TOKEN });
  b = await createTestApp({ ADMIN_TOKEN }, { database: a.database });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** Another instance hears of a change a moment after its commit, not in the same instant. */
const SHORTLY = { timeout: 2_000, interval: 20 };

const status = (app: App, headers: Record<string, string>) =>
  app.inject({ method: "GET", url: "/account/status", headers });

describe("caches kept by the change feed", () => {
  let alice: Customer;
  beforeAll(async () => {
    alice = await customer(a.app, "feed-alice@example.com");
  });

  it("serves a repeated read from memory", async () => {
    const before = a.app.changeFeed.caches.balances.stats();
    expect(await balanceBytes(a.app, alice)).toBe(GB);
    expect(await balanceBytes(a.app, alice)).toBe(GB);
    const after = a.app.changeFeed.caches.balances.stats();
    expect(after.hits).toBeGreaterThan(before.hits);
  });

  it("shows a credit made through the other instance", async () => {
    expect(await balanceBytes(a.app, alice)).toBe(GB);
    const credit = await b.app.inject({
      method: "POST",
      url: "/admin/credits",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { email: "feed-alice@example.com", gb: 2, note: "feed test" },
    });
    expect(credit.statusCode, credit.body).toBe(200);
    expect(await balanceBytes(b.app, alice)).toBe(3 * GB); // the writer reads its own write at once
    await expect.poll(() => balanceBytes(a.app, alice), SHORTLY).toBe(3 * GB);
  });

  it("shows a debit written straight into the database, as the gateway's flush writes it", async () => {
    const start = await balanceBytes(a.app, alice);
    await applyLedgerEntry(a.database.db, {
      userId: alice.id,
      kind: "usage",
      reference: `feed-test:${alice.id}`,
      deltaBytes: -12_345,
    });
    await expect.poll(() => balanceBytes(a.app, alice), SHORTLY).toBe(start - 12_345);
    await expect.poll(() => balanceBytes(b.app, alice), SHORTLY).toBe(start - 12_345);
  });

  it("shows an order paid through the other instance in the history and the balance", async () => {
    const order = await createOrder(a.app, alice, { amount: 3, method: "crypto", network_type: "base" });
    const paymentStatus = async () => {
      const page = await a.app.inject({ method: "GET", url: "/transactions", headers: alice.headers });
      return page.json().data.find((o: { order_id: string }) => o.order_id === order.order_id)
        ?.payment_status;
    };
    expect(await paymentStatus()).toBe("waiting");
    const start = await balanceBytes(a.app, alice);
    await sandboxPay(b.app, order.order_id);
    await expect.poll(paymentStatus, SHORTLY).toBe("paid");
    await expect.poll(() => balanceBytes(a.app, alice), SHORTLY).toBe(start + GB);
  });

  it("refuses a session on every instance once it is logged out on one", async () => {
    const bob = await customer(a.app, "feed-bob@example.com");
    expect((await status(a.app, bob.headers)).statusCode).toBe(200);
    expect((await status(b.app, bob.headers)).statusCode).toBe(200);
    const logout = await b.app.inject({ method: "POST", url: "/auth/logout", headers: bob.headers });
    expect(logout.statusCode).toBe(200);
    expect((await status(b.app, bob.headers)).statusCode).toBe(401);
    const onA = () => status(a.app, bob.headers).then((response) => response.statusCode);
    await expect.poll(onA, SHORTLY).toBe(401);
  });

  it("refuses a regenerated API token's predecessor on every instance", async () => {
    const carol = await customer(a.app, "feed-carol@example.com");
    const first = await a.app.inject({ method: "GET", url: "/account/api-token", headers: carol.headers });
    expect(first.statusCode, first.body).toBe(200);
    const oldToken = bearer(first.json().data.token);
    expect((await status(a.app, oldToken)).statusCode).toBe(200);
    expect((await status(b.app, oldToken)).statusCode).toBe(200);
    const second = await b.app.inject({
      method: "POST",
      url: "/account/api-token/regenerate",
      headers: carol.headers,
    });
    expect(second.json().data.token).not.toBe(first.json().data.token);
    expect((await status(b.app, oldToken)).statusCode).toBe(401);
    const onA = () => status(a.app, oldToken).then((response) => response.statusCode);
    await expect.poll(onA, SHORTLY).toBe(401);
    expect((await status(a.app, bearer(second.json().data.token))).statusCode).toBe(200);
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))("when the feed loses its connection", () => {
  it("stops caching, reads through, and caches again once it has reconnected", async () => {
    const dave = await customer(a.app, "feed-dave@example.com");
    const { balances } = a.app.changeFeed.caches;
    expect(balances.live).toBe(true);
    await a.database.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
    );
    // Both instances lose their listener; while it is down, a write must still show at once.
    await vi.waitFor(() => expect(balances.live).toBe(false), { timeout: 2_000, interval: 5 });
    await applyLedgerEntry(a.database.db, {
      userId: dave.id,
      kind: "bonus",
      reference: "outage",
      deltaBytes: 7,
    });
    expect(await balanceBytes(a.app, dave)).toBe(GB + 7);
    for (let i = 0; i < 300 && !balances.live; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(balances.live).toBe(true);
    expect(await balanceBytes(a.app, dave)).toBe(GB + 7);
    await applyLedgerEntry(a.database.db, {
      userId: dave.id,
      kind: "bonus",
      reference: "after",
      deltaBytes: 3,
    });
    await expect.poll(() => balanceBytes(a.app, dave), SHORTLY).toBe(GB + 10);
  });
});
