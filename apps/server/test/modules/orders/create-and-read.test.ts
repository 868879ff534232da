import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxPayAddress } from "../../../src/modules/payments/sandbox-provider.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { type Customer, createOrder, customer, getOrder, makeOverdue } from "./helpers.ts";

let t: TestApp;
let alice: Customer;
let bob: Customer;

beforeAll(async () => {
  t = await createTestApp();
  alice = await customer(t.app, "alice@example.com");
  bob = await customer(t.app, "bob@example.com");
});
afterAll(() => t?.close());

describe("POST /transactions", () => {
  it("creates a waiting USDC order with a pay address, QR code and amount to send", async () => {
    const order = await createOrder(t.app, alice, { amount: 15, method: "crypto", network_type: "solana" });
    expect(order).toMatchObject({
      user_id: alice.id,
      method: "crypto",
      network_type: "solana",
      amount_usd: 15,
      gb: 5,
      payment_status: "waiting",
      price_amount: 15,
      payment_token: "USDC (Solana)",
      pay_address: sandboxPayAddress(order.order_id, "solana"),
      paid_at: null,
      payin_hash: null,
      transaction_url: null,
      balance_gb_after: null,
      deal_id: null,
    });
    expect(order.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(order.pay_address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(Date.parse(order.expires_at) - Date.parse(order.created_at)).toBe(60 * 60_000);
  });

  it("gives EVM networks a 0x address and their own payment token", async () => {
    const tokens = { polygon: "USDC (Matic)", base: "USDC (Base)", ethereum: "USDC (Ethereum)" };
    for (const [network, token] of Object.entries(tokens)) {
      const order = await createOrder(t.app, alice, { amount: 3, method: "crypto", network_type: network });
      expect(order.pay_address).toMatch(/^0x[0-9a-f]{40}$/);
      expect(order.payment_token).toBe(token);
    }
  });

  it("creates a card order without a pay address", async () => {
    const order = await createOrder(t.app, alice, { amount: 30, method: "card" });
    expect(order).toMatchObject({ method: "card", network_type: null, pay_address: null, gb: 10 });
    expect(order.payment_token).toBe("Card");
  });

  it.each([
    [{ amount: 0, network_type: "solana" }, "amount must be greater than 0"],
    [{ amount: -5, network_type: "solana" }, "amount must be greater than 0"],
    [{ amount: "10", network_type: "solana" }, "amount must be a number of USD"],
    [{ amount: 1e-9, network_type: "solana" }, "amount must be at least 1 USD"],
    [{ amount: 0.99, method: "card" }, "amount must be at least 1 USD"],
    [{ amount: "NaN", network_type: "solana" }, "amount must be a number of USD"],
    [{ amount: 100_001, network_type: "solana" }, "amount must be at most 100000 USD"],
    [{ amount: 1e20, method: "card" }, "amount must be at most 100000 USD"],
    [{ amount: 1.005, network_type: "solana" }, "amount must have at most 2 decimals"],
    [{ amount: 10 }, "network_type is required for crypto"],
    [{ amount: 10, network_type: "bitcoin" }, "network_type must be one of solana, polygon, base, ethereum"],
    [{ amount: 10, method: "paypal" }, "method must be crypto or card"],
    [{ amount: 10, network_type: "solana", quantity: 2 }, "quantity is only allowed with deal_id"],
    [{ amount: 10, network_type: "solana", extra: 1 }, "Unrecognized key"],
  ])("refuses %j with a 400 naming the problem", async (payload, message) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/transactions",
      headers: alice.headers,
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
    expect(response.json().message).toContain(message);
  });

  it("refuses an order under 1 GB at the list price ($3) with a 400 in the checkout page's words, creating nothing", async () => {
    const before = await t.app.inject({ method: "GET", url: "/transactions", headers: alice.headers });
    for (const payload of [
      { amount: 1, network_type: "solana" },
      { amount: 2.99, method: "card" },
    ]) {
      const response = await t.app.inject({
        method: "POST",
        url: "/transactions",
        headers: alice.headers,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        message: "The least one order can be is $3 (1 GB).",
      });
    }
    const after = await t.app.inject({ method: "GET", url: "/transactions", headers: alice.headers });
    expect(after.json().total).toBe(before.json().total);
    expect((await createOrder(t.app, alice, { amount: 3, method: "card" })).gb).toBe(1);
  });

  it("refuses amounts JSON cannot hold as a finite number with a 400, creating nothing", async () => {
    const before = await t.app.inject({ method: "GET", url: "/transactions", headers: alice.headers });
    for (const amount of ["1e309", "-1e309", "NaN", "Infinity", "1e-400"]) {
      const response = await t.app.inject({
        method: "POST",
        url: "/transactions",
        headers: { ...alice.headers, "content-type": "application/json" },
        payload: `{"amount":${amount},"method":"card"}`,
      });
      expect(response.statusCode, amount).toBe(400);
      expect(response.json().success).toBe(false);
    }
    const after = await t.app.inject({ method: "GET", url: "/transactions", headers: alice.headers });
    expect(after.json().total).toBe(before.json().total);
  });

  it("refuses a body that is not JSON, and a deal that is not live", async () => {
    const text = await t.app.inject({
      method: "POST",
      url: "/transactions",
      headers: { ...alice.headers, "content-type": "application/json" },
      payload: "{amount: 1",
    });
    expect(text.statusCode).toBe(400);
    const deal = await t.app.inject({
      method: "POST",
      url: "/transactions",
      headers: alice.headers,
      payload: { amount: 10, network_type: "solana", deal_id: "abcdefgh" },
    });
    expect(deal.statusCode).toBe(404);
    expect(deal.json()).toEqual({
      success: false,
      message: "This deal is no longer available. Please check back again soon.",
    });
  });

  it("needs a signed-in user", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/transactions",
      payload: { amount: 10, network_type: "solana" },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: "Unauthorized" });
  });
});

describe("GET /transactions/{orderId}", () => {
  it("shows the owner their order and nobody else", async () => {
    const order = await createOrder(t.app, alice, { amount: 6, network_type: "base" });
    expect(await getOrder(t.app, alice, order.order_id)).toEqual(order);
    const asBob = await t.app.inject({
      method: "GET",
      url: `/transactions/${order.order_id}`,
      headers: bob.headers,
    });
    expect(asBob.statusCode).toBe(404);
    expect(asBob.json()).toEqual({ success: false, message: "Order not found" });
    const anonymous = await t.app.inject({ method: "GET", url: `/transactions/${order.order_id}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("answers 404 for unknown and malformed ids", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "1%27%20OR%201=1"]) {
      const response = await t.app.inject({
        method: "GET",
        url: `/transactions/${id}`,
        headers: alice.headers,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe("Order not found");
    }
  });

  it("turns an unpaid order expired after 60 minutes", async () => {
    const order = await createOrder(t.app, alice, { amount: 3, network_type: "polygon" });
    await makeOverdue(t.app, order.order_id);
    expect((await getOrder(t.app, alice, order.order_id)).payment_status).toBe("expired");
  });

  it("shows overdue orders expired in the list too, and the sweep expires the rest", async () => {
    const erin = await customer(t.app, "erin@example.com");
    const listed = await createOrder(t.app, erin, { amount: 3, network_type: "polygon" });
    const swept = await createOrder(t.app, bob, { amount: 3, network_type: "polygon" });
    await makeOverdue(t.app, listed.order_id, swept.order_id);
    const list = (await t.app.inject({ method: "GET", url: "/transactions", headers: erin.headers })).json();
    expect(list.data.map((o: { payment_status: string }) => o.payment_status)).toEqual(["expired"]);
    expect(await t.app.orders.expireDue()).toBeGreaterThanOrEqual(1);
    const [row] = await t.database.query<{ payment_status: string }>(
      "SELECT payment_status FROM orders WHERE id = $1",
      [swept.order_id],
    );
    expect(row?.payment_status).toBe("expired");
  });
});

describe("GET /transactions", () => {
  it("pages the caller's orders newest first with SPEC's page fields", async () => {
    const carol = await customer(t.app, "carol@example.com");
    const created = [];
    for (let i = 1; i <= 12; i++) {
      created.push(
        await createOrder(t.app, carol, {
          amount: 10 + i,
          method: i % 4 === 0 ? "card" : "crypto",
          network_type: i % 4 === 0 ? undefined : "solana",
        }),
      );
    }
    const first = await t.app.inject({ method: "GET", url: "/transactions", headers: carol.headers });
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1).toMatchObject({
      success: true,
      current_page: 1,
      last_page: 2,
      per_page: 10,
      total: 12,
      from: 1,
      to: 10,
    });
    expect(page1.data.map((o: { amount_usd: number }) => o.amount_usd)).toEqual([
      22, 21, 20, 19, 18, 17, 16, 15, 14, 13,
    ]);

    const page2 = (
      await t.app.inject({ method: "GET", url: "/transactions?page=2", headers: carol.headers })
    ).json();
    expect(page2).toMatchObject({ current_page: 2, last_page: 2, total: 12, from: 11, to: 12 });
    expect(page2.data).toHaveLength(2);

    const cards = (
      await t.app.inject({
        method: "GET",
        url: "/transactions?source=card&per_page=2",
        headers: carol.headers,
      })
    ).json();
    expect(cards).toMatchObject({ total: 3, last_page: 2, per_page: 2, from: 1, to: 2 });
    expect(cards.data.every((o: { method: string }) => o.method === "card")).toBe(true);

    const beyond = (
      await t.app.inject({ method: "GET", url: "/transactions?page=9", headers: carol.headers })
    ).json();
    expect(beyond).toMatchObject({ data: [], total: 12, from: null, to: null });
  });

  it("never lists someone else's orders", async () => {
    const dave = await customer(t.app, "dave@example.com");
    const empty = (await t.app.inject({ method: "GET", url: "/transactions", headers: dave.headers })).json();
    expect(empty).toEqual({
      success: true,
      data: [],
      current_page: 1,
      last_page: 1,
      per_page: 10,
      total: 0,
      from: null,
      to: null,
    });
  });

  it.each(["page=0", "page=x", "per_page=101", "per_page=1.5", "source=paypal", "sort=asc"])(
    "refuses ?%s with a 400",
    async (query) => {
      const response = await t.app.inject({
        method: "GET",
        url: `/transactions?${query}`,
        headers: alice.headers,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().success).toBe(false);
    },
  );

  it("needs a signed-in user", async () => {
    expect((await t.app.inject({ method: "GET", url: "/transactions" })).statusCode).toBe(401);
  });
});
