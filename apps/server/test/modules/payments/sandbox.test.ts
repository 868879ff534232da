import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import {
  balanceBytes,
  type Customer,
  createOrder,
  customer,
  customerWithoutEmail,
  GB,
  getOrder,
  ledgerMismatches,
  makeOverdue,
  sandboxPay,
} from "../orders/helpers.ts";

let t: TestApp;
let alice: Customer;
let bob: Customer;

beforeAll(async () => {
  t = await createTestApp();
  alice = await customer(t.app, "alice@example.com");
  bob = await customer(t.app, "bob@example.com");
});
afterAll(() => t?.close());

describe("sandbox USDC payments", () => {
  it("credits a paid order once and shows the balance after it", async () => {
    const before = await balanceBytes(t.app, alice);
    expect(before).toBe(1 * GB); // the free GB
    const order = await createOrder(t.app, alice, { amount: 15, network_type: "solana" });
    const paid = await sandboxPay(t.app, order.order_id);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({
      payment_status: "paid",
      balance_gb_after: 6,
      payin_hash: "DUMMY_TX_ID",
      transaction_url: null,
    });
    expect(paid.json().data.paid_at).not.toBeNull();
    expect(await balanceBytes(t.app, alice)).toBe(6 * GB);

    const replay = await sandboxPay(t.app, order.order_id);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().data.payment_status).toBe("paid");
    expect(await balanceBytes(t.app, alice)).toBe(6 * GB);
  });

  it("credits an order confirmed by many callers at the same moment exactly once", async () => {
    const start = await balanceBytes(t.app, alice);
    const order = await createOrder(t.app, alice, { amount: 30, network_type: "polygon" });
    const results = await Promise.all(Array.from({ length: 25 }, () => sandboxPay(t.app, order.order_id)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(await balanceBytes(t.app, alice)).toBe(start + 10 * GB);
    const entries = await t.database.query("SELECT 1 FROM ledger_entries WHERE reference LIKE $1", [
      `order:${order.order_id}:%`,
    ]);
    expect(entries).toHaveLength(1);
    expect(await ledgerMismatches(t.app)).toEqual([]);
  });

  it("records a partial payment without crediting it, then credits the whole order once it is paid", async () => {
    const start = await balanceBytes(t.app, bob);
    const order = await createOrder(t.app, bob, { amount: 30, network_type: "base" });
    const partial = await sandboxPay(t.app, order.order_id, { amount_usd: 12 });
    expect(partial.json().data).toMatchObject({
      payment_status: "partially_paid",
      note: "Received 12.00 of 30.00 USDC.",
      balance_gb_after: null,
      paid_at: null,
    });
    expect(await balanceBytes(t.app, bob)).toBe(start);
    await sandboxPay(t.app, order.order_id, { amount_usd: 12 }); // the same partial, replayed
    expect(await balanceBytes(t.app, bob)).toBe(start);
    const rest = await sandboxPay(t.app, order.order_id);
    expect(rest.json().data.payment_status).toBe("paid");
    expect(await balanceBytes(t.app, bob)).toBe(start + 10 * GB);
    await sandboxPay(t.app, order.order_id); // the payment in full, replayed
    await sandboxPay(t.app, order.order_id, { amount_usd: 12 }); // a late partial reading
    expect((await getOrder(t.app, bob, order.order_id)).payment_status).toBe("paid");
    expect(await balanceBytes(t.app, bob)).toBe(start + 10 * GB);
    const entries = await t.database.query("SELECT 1 FROM ledger_entries WHERE reference LIKE $1", [
      `order:${order.order_id}:%`,
    ]);
    expect(entries).toHaveLength(1);
    expect(await ledgerMismatches(t.app)).toEqual([]);
  });

  it("still credits a payment that arrives after the order expired", async () => {
    const start = await balanceBytes(t.app, bob);
    const order = await createOrder(t.app, bob, { amount: 3, network_type: "ethereum" });
    await makeOverdue(t.app, order.order_id);
    expect((await getOrder(t.app, bob, order.order_id)).payment_status).toBe("expired");
    const late = await sandboxPay(t.app, order.order_id);
    expect(late.json().data.payment_status).toBe("paid");
    expect(await balanceBytes(t.app, bob)).toBe(start + 1 * GB);
  });

  it("refuses bad input to the dev pay endpoint with a 4xx", async () => {
    const order = await createOrder(t.app, bob, { amount: 3, network_type: "solana" });
    for (const [url, payload, status] of [
      ["/dev/orders/00000000-0000-4000-8000-000000000000/pay", undefined, 404],
      ["/dev/orders/nope/pay", undefined, 404],
      [`/dev/orders/${order.order_id}/pay`, { amount_usd: -1 }, 400],
      [`/dev/orders/${order.order_id}/pay`, { amount_usd: "all" }, 400],
      [`/dev/orders/${order.order_id}/pay`, { amount_usd: 1, extra: true }, 400],
    ] as const) {
      const response = await t.app.inject({ method: "POST", url, ...(payload ? { payload } : {}) });
      expect(response.statusCode, url).toBe(status);
      expect(response.json().success).toBe(false);
    }
    expect((await getOrder(t.app, bob, order.order_id)).payment_status).toBe("waiting");
  });
});

describe("sandbox card payments", () => {
  it("sends the customer to the sandbox card page, whose Pay marks the order paid", async () => {
    const start = await balanceBytes(t.app, alice);
    const order = await createOrder(t.app, alice, { amount: 9, method: "card" });
    const session = await t.app.inject({
      method: "POST",
      url: "/stripe/sessions",
      headers: alice.headers,
      payload: { order_id: order.order_id },
    });
    expect(session.statusCode, session.body).toBe(200);
    const redirectUrl = session.json().data.redirect_url;
    expect(redirectUrl).toBe(`http://localhost:3000/dev/card-checkout/${order.order_id}`);
    expect((await getOrder(t.app, alice, order.order_id)).stripe_redirect_url).toBe(redirectUrl);

    const page = await t.app.inject({ method: "GET", url: new URL(redirectUrl).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("$9.00");
    expect(page.body).toContain(`action="/dev/card-checkout/${order.order_id}/pay"`);

    const pay = await t.app.inject({
      method: "POST",
      url: `/dev/card-checkout/${order.order_id}/pay`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "",
    });
    expect(pay.statusCode).toBe(303);
    expect(pay.headers.location).toBe(`http://localhost:3000/checkout?order_id=${order.order_id}`);
    expect((await getOrder(t.app, alice, order.order_id)).payment_status).toBe("paid");
    expect(await balanceBytes(t.app, alice)).toBe(start + 3 * GB);
  });

  it("writes large amounts on the sandbox card page with thousands separators", async () => {
    const order = await createOrder(t.app, alice, { amount: 3000, method: "card" });
    const session = await t.app.inject({
      method: "POST",
      url: "/stripe/sessions",
      headers: alice.headers,
      payload: { order_id: order.order_id },
    });
    const page = await t.app.inject({
      method: "GET",
      url: new URL(session.json().data.redirect_url).pathname,
    });
    expect(page.body).toContain("$3,000.00");
    expect(page.body).toContain("1,000 GB of proxy data");
    expect(page.body).not.toContain("$3000.00");
  });

  it("refuses card sessions for crypto orders, other people's orders and bad bodies", async () => {
    const crypto = await createOrder(t.app, alice, { amount: 3, network_type: "solana" });
    const card = await createOrder(t.app, alice, { amount: 3, method: "card" });
    const cases: [Customer | null, unknown, number, string][] = [
      [alice, { order_id: crypto.order_id }, 400, "This order is not a card payment."],
      [bob, { order_id: card.order_id }, 404, "Order not found"],
      [alice, { order_id: "00000000-0000-4000-8000-000000000000" }, 404, "Order not found"],
      [alice, {}, 400, "order_id is required"],
      [alice, { order_id: 5 }, 400, "order_id is required"],
      [null, { order_id: card.order_id }, 401, "Unauthorized"],
    ];
    for (const [who, payload, status, message] of cases) {
      const response = await t.app.inject({
        method: "POST",
        url: "/stripe/sessions",
        headers: who?.headers ?? {},
        payload: payload as Record<string, unknown>,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json()).toEqual({ success: false, message });
    }
  });

  it("does not reopen a paid card order", async () => {
    const card = await createOrder(t.app, bob, { amount: 3, method: "card" });
    await sandboxPay(t.app, card.order_id);
    const response = await t.app.inject({
      method: "POST",
      url: "/stripe/sessions",
      headers: bob.headers,
      payload: { order_id: card.order_id },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe("This order can no longer be paid.");
  });

  it("shows a not-found page for an unknown card order", async () => {
    const page = await t.app.inject({ method: "GET", url: "/dev/card-checkout/nope" });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain("Order not found");
  });
});

describe("in production", () => {
  it("has no sandbox endpoints and refuses card payments without Stripe", async () => {
    const prod = await createTestApp({ NODE_ENV: "production", ADMIN_TOKEN: "" });
    try {
      const someone = await customerWithoutEmail(prod.database, prod.config.JWT_SECRET, "prod@example.com");
      const missing = await prod.app.inject({
        method: "POST",
        url: "/dev/orders/00000000-0000-4000-8000-000000000000/pay",
      });
      expect(missing.statusCode).toBe(404);
      const page = await prod.app.inject({
        method: "GET",
        url: "/dev/card-checkout/x",
        headers: { accept: "application/json" },
      });
      expect(page.statusCode).toBe(404);
      const card = await prod.app.inject({
        method: "POST",
        url: "/transactions",
        headers: someone.headers,
        payload: { amount: 3, method: "card" },
      });
      expect(card.statusCode).toBe(503);
      expect(card.json()).toEqual({ success: false, message: "Card payments are not available." });
      const crypto = await prod.app.inject({
        method: "POST",
        url: "/transactions",
        headers: someone.headers,
        payload: { amount: 3, network_type: "solana" },
      });
      expect(crypto.statusCode).toBe(201);
    } finally {
      await prod.close();
    }
  });
});
