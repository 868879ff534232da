import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_AN_OPERATOR } from "../../../src/modules/admin/operator-auth.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { balanceBytes, type Customer, createOrder, customer, GB, sandboxPay } from "../orders/helpers.ts";

const ADMIN_TOKEN = "admin-token-0123456789abcdef";
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

let t: TestApp;
let alice: Customer;
let bob: Customer;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_TOKEN });
  alice = await customer(t.app, "alice@example.com");
  bob = await customer(t.app, "bob@example.com");
});
afterAll(() => t?.close());

describe("admin API", () => {
  it("credits and debits an account with a note, as adjustment ledger entries", async () => {
    const credit = await t.app.inject({
      method: "POST",
      url: "/admin/credits",
      headers: admin,
      payload: { email: "Alice@Example.com", gb: 2.5, note: "goodwill" },
    });
    expect(credit.statusCode, credit.body).toBe(200);
    expect(credit.json()).toMatchObject({
      success: true,
      message: "Balance adjusted",
      data: { account: { email: "alice@example.com", balance_gb: 3.5 }, delta_bytes: 2.5 * GB },
    });
    const debit = await t.app.inject({
      method: "POST",
      url: "/admin/credits",
      headers: admin,
      payload: { email: "alice@example.com", gb: -0.5, note: "correction" },
    });
    expect(debit.json().data.account.balance_bytes).toBe(3 * GB);
    expect(await balanceBytes(t.app, alice)).toBe(3 * GB);
    const entries = await t.database.query<{ note: string }>(
      "SELECT note FROM ledger_entries WHERE user_id = $1 AND kind = 'adjustment' ORDER BY id",
      [alice.id],
    );
    expect(entries.map((e) => e.note)).toEqual(["goodwill", "correction"]);
  });

  it("applies a retried credit with the same Idempotency-Key once", async () => {
    const send = () =>
      t.app.inject({
        method: "POST",
        url: "/admin/credits",
        headers: { ...admin, "idempotency-key": "ticket-42" },
        payload: { email: "bob@example.com", gb: 1, note: "ticket 42" },
      });
    const [first, second] = await Promise.all([send(), send()]);
    expect([first.json().message, second.json().message].sort()).toEqual([
      "Already applied",
      "Balance adjusted",
    ]);
    expect(await balanceBytes(t.app, bob)).toBe(2 * GB);
  });

  it.each([
    [{ email: "nobody@example.com", gb: 1, note: "x" }, 404, "Account not found"],
    [{ email: "not-an-email", gb: 1, note: "x" }, 400, "email must be an e-mail address"],
    [{ email: "alice@example.com", gb: 0, note: "x" }, 400, "gb must not be 0"],
    [{ email: "alice@example.com", gb: "1", note: "x" }, 400, "gb must be a number"],
    [{ email: "alice@example.com", gb: 2e6, note: "x" }, 400, "gb must be between"],
    [{ email: "alice@example.com", gb: 1, note: "  " }, 400, "note is required"],
    [{ email: "alice@example.com", gb: 1 }, 400, "note is required"],
  ])("refuses %j", async (payload, status, message) => {
    const response = await t.app.inject({ method: "POST", url: "/admin/credits", headers: admin, payload });
    expect(response.statusCode).toBe(status);
    expect(response.json().success).toBe(false);
    expect(response.json().message).toContain(message);
  });

  it("lists accounts and orders, filtered", async () => {
    const order = await createOrder(t.app, bob, { amount: 3, network_type: "solana" });
    await sandboxPay(t.app, order.order_id);
    await createOrder(t.app, alice, { amount: 6, network_type: "base" });

    const accounts = await t.app.inject({ method: "GET", url: "/admin/accounts?email=BOB", headers: admin });
    expect(accounts.statusCode).toBe(200);
    expect(accounts.json()).toMatchObject({ total: 1, data: [{ email: "bob@example.com", balance_gb: 3 }] });

    const all = await t.app.inject({ method: "GET", url: "/admin/orders", headers: admin });
    expect(all.json().total).toBe(2);
    const paid = await t.app.inject({ method: "GET", url: "/admin/orders?status=paid", headers: admin });
    expect(paid.json()).toMatchObject({
      total: 1,
      data: [{ order_id: order.order_id, email: "bob@example.com" }],
    });
    const byEmail = await t.app.inject({ method: "GET", url: "/admin/orders?email=alice", headers: admin });
    expect(byEmail.json().data.map((o: { email: string }) => o.email)).toEqual(["alice@example.com"]);
    const wildcard = await t.app.inject({ method: "GET", url: "/admin/orders?email=%25", headers: admin });
    expect(wildcard.json().total).toBe(0);

    for (const query of ["status=gone", "page=0", "per_page=9999", "color=red"]) {
      const bad = await t.app.inject({ method: "GET", url: `/admin/orders?${query}`, headers: admin });
      expect(bad.statusCode, query).toBe(400);
    }
  });

  it("refuses anyone without the admin token (401) and a signed-in customer (403)", async () => {
    for (const [headers, status, message] of [
      [{}, 401, "Unauthorized"],
      [{ authorization: "Bearer wrong-token-wrong-token" }, 401, "Unauthorized"],
      [alice.headers, 403, NOT_AN_OPERATOR],
      [{ authorization: ADMIN_TOKEN }, 401, "Unauthorized"],
    ] as const) {
      for (const [method, url] of [
        ["GET", "/admin/accounts"],
        ["GET", "/admin/orders"],
        ["POST", "/admin/credits"],
      ] as const) {
        const response = await t.app.inject({
          method,
          url,
          headers,
          ...(method === "POST" ? { payload: { email: "alice@example.com", gb: 100, note: "steal" } } : {}),
        });
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual({ success: false, message });
      }
    }
    expect(await balanceBytes(t.app, alice)).toBe(3 * GB);
  });

  it("does not exist without ADMIN_TOKEN", async () => {
    const plain = await createTestApp({}, { database: t.database });
    try {
      const response = await plain.app.inject({
        method: "GET",
        url: "/admin/accounts",
        headers: { ...admin, accept: "application/json" },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
