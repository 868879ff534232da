import { type HistoryPage, ORDER_UPDATED_EVENT, type Order, ordersChannel } from "@bytetoll/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRealtime } from "../../helpers/realtime-client.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { type Customer, createOrder, customer, getOrder, makeOverdue, sandboxPay } from "./helpers.ts";

const ADMIN_TOKEN = "admin-token-orders-0123456789";

let t: TestApp;
let alice: Customer;
let bob: Customer;

beforeAll(async () => {
  t = await createTestApp({
    ADMIN_TOKEN,
    OPERATOR_NAME: "Toll Networks Ltd",
    OPERATOR_ADDRESS: "1 Exchange Square\\nLondon EC2A 2BR",
  });
  alice = await customer(t.app, "history-alice@example.com");
  bob = await customer(t.app, "history-bob@example.com");
});
afterAll(() => t?.close());

async function history(who: Customer, query = ""): Promise<HistoryPage> {
  const response = await t.app.inject({ method: "GET", url: `/history${query}`, headers: who.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const cancel = (who: Customer, orderId: string) =>
  t.app.inject({ method: "POST", url: `/transactions/${orderId}/cancel`, headers: who.headers });

const receipt = (who: Customer, orderId: string) =>
  t.app.inject({ method: "GET", url: `/transactions/${orderId}/receipt`, headers: who.headers });

describe("GET /history", () => {
  it("shows a new customer's free GB as a row of its own", async () => {
    const carol = await customer(t.app, "history-carol@example.com");
    const page = await history(carol);
    expect(page).toMatchObject({ total: 1, from: 1, to: 1, current_page: 1, last_page: 1 });
    expect(page.data[0]).toMatchObject({ kind: "bonus", gb: 1, order_id: null });
    expect(page.data[0]?.id).toMatch(/^ledger:\d+$/);
  });

  it("lists orders, operator credits and debits newest first, each row once across pages", async () => {
    const dave = await customer(t.app, "history-dave@example.com");
    const first = await createOrder(t.app, dave, { amount: 3, network_type: "solana" });
    for (const gb of [2, -0.5]) {
      const credit = await t.app.inject({
        method: "POST",
        url: "/admin/credits",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { email: "history-dave@example.com", gb, note: gb > 0 ? "Goodwill" : "Correction" },
      });
      expect(credit.statusCode, credit.body).toBe(200);
    }
    const second = await createOrder(t.app, dave, { amount: 6, network_type: "base" });
    expect((await sandboxPay(t.app, second.order_id)).statusCode).toBe(200);

    const pages = [
      await history(dave, "?per_page=2"),
      await history(dave, "?per_page=2&page=2"),
      await history(dave, "?per_page=2&page=3"),
    ];
    expect(pages.map((page) => [page.from, page.to, page.total, page.last_page])).toEqual([
      [1, 2, 5, 3],
      [3, 4, 5, 3],
      [5, 5, 5, 3],
    ]);
    const rows = pages.flatMap((page) => page.data);
    expect(new Set(rows.map((row) => row.id)).size).toBe(5);
    expect(
      rows.map((row) => (row.kind === "order" ? `order ${row.order.order_id}` : `${row.kind} ${row.gb}`)),
    ).toEqual([
      `order ${second.order_id}`,
      "adjustment -0.5",
      "adjustment 2",
      `order ${first.order_id}`,
      "bonus 1",
    ]);
    expect(rows[0]).toMatchObject({ kind: "order", order: { payment_status: "paid", provider: "sandbox" } });
    expect(rows[1]).toMatchObject({ note: "Correction" });
    const dates = rows.map((row) => Date.parse(row.created_at));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });

  it("leaves GET /transactions as it was: orders only", async () => {
    const response = await t.app.inject({ method: "GET", url: "/transactions", headers: alice.headers });
    expect(response.statusCode).toBe(200);
    expect(
      response.json().data.every((order: { order_id?: string }) => typeof order.order_id === "string"),
    ).toBe(true);
  });

  it("refuses a bad page size with a clear 400", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/history?per_page=500",
      headers: alice.headers,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, message: expect.stringContaining("per_page") });
  });

  it("needs a signed-in caller", async () => {
    expect((await t.app.inject({ method: "GET", url: "/history" })).statusCode).toBe(401);
  });
});

describe("POST /transactions/{orderId}/cancel", () => {
  it("cancels the owner's waiting order, which then shows cancelled everywhere", async () => {
    const order = await createOrder(t.app, alice, { amount: 9, network_type: "polygon" });
    const response = await cancel(alice, order.order_id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ order_id: order.order_id, payment_status: "cancelled" });
    expect((await getOrder(t.app, alice, order.order_id)).payment_status).toBe("cancelled");
    const list = await t.app.inject({ method: "GET", url: "/transactions", headers: alice.headers });
    expect(
      list.json().data.find((row: { order_id: string }) => row.order_id === order.order_id),
    ).toMatchObject({
      payment_status: "cancelled",
    });
  });

  it("pushes the cancelled order to the owner's open pages", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const socket = await connectRealtime(t.app, alice.token);
    try {
      const received: Order[] = [];
      socket.on(ORDER_UPDATED_EVENT, (event: { topup_transaction: Order }) =>
        received.push(event.topup_transaction),
      );
      await socket.timeout(5_000).emitWithAck("subscribe", { channel: ordersChannel(alice.id) });
      const order = await createOrder(t.app, alice, { amount: 5, network_type: "solana" });
      expect((await cancel(alice, order.order_id)).statusCode).toBe(200);
      await expect
        .poll(
          () => received.find((row) => row.order_id === order.order_id && row.payment_status === "cancelled"),
          {
            timeout: 5_000,
          },
        )
        .toBeDefined();
    } finally {
      socket.disconnect();
    }
  });

  it("answers 404 for another customer's order and changes nothing", async () => {
    const order = await createOrder(t.app, alice, { amount: 4, network_type: "solana" });
    const response = await cancel(bob, order.order_id);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: "Order not found" });
    expect((await getOrder(t.app, alice, order.order_id)).payment_status).toBe("waiting");
    expect((await cancel(bob, "not-an-order")).statusCode).toBe(404);
  });

  it("answers 409 with the reason for an order that is no longer waiting", async () => {
    const paid = await createOrder(t.app, alice, { amount: 3, network_type: "solana" });
    await sandboxPay(t.app, paid.order_id);
    const refused = await cancel(alice, paid.order_id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      success: false,
      message: "Only an unpaid order can be cancelled: this one is paid.",
    });

    const twice = await createOrder(t.app, alice, { amount: 3, network_type: "solana" });
    expect((await cancel(alice, twice.order_id)).statusCode).toBe(200);
    const again = await cancel(alice, twice.order_id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("Only an unpaid order can be cancelled: this one is cancelled.");
  });

  it("expires an overdue order instead of cancelling it", async () => {
    const order = await createOrder(t.app, alice, { amount: 6, network_type: "solana" });
    await makeOverdue(t.app, order.order_id);
    const response = await cancel(alice, order.order_id);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe("Only an unpaid order can be cancelled: this one is expired.");
  });

  it("credits a payment that still arrives after the cancel, once", async () => {
    const order = await createOrder(t.app, bob, { amount: 6, network_type: "solana" });
    expect((await cancel(bob, order.order_id)).statusCode).toBe(200);
    expect((await sandboxPay(t.app, order.order_id)).statusCode).toBe(200);
    expect(await getOrder(t.app, bob, order.order_id)).toMatchObject({ payment_status: "paid", gb: 2 });
  });
});

describe("GET /transactions/{orderId}/receipt", () => {
  it("gives the owner of a paid order its receipt with the operator's name and address", async () => {
    const order = await createOrder(t.app, alice, { amount: 15, network_type: "ethereum" });
    await sandboxPay(t.app, order.order_id);
    const response = await receipt(alice, order.order_id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      order: { order_id: order.order_id, payment_status: "paid", amount_usd: 15, gb: 5, provider: "sandbox" },
      operator: { name: "Toll Networks Ltd", address_lines: ["1 Exchange Square", "London EC2A 2BR"] },
    });
    expect(response.json().data.order.paid_at).toEqual(expect.any(String));
  });

  it("is 404 for another customer and 409 for an unpaid order", async () => {
    const paid = await createOrder(t.app, alice, { amount: 3, network_type: "solana" });
    await sandboxPay(t.app, paid.order_id);
    expect((await receipt(bob, paid.order_id)).statusCode).toBe(404);
    const waiting = await createOrder(t.app, alice, { amount: 3, network_type: "solana" });
    const refused = await receipt(alice, waiting.order_id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ success: false, message: "Only a paid order has a receipt." });
  });
});
