import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import {
  balanceBytes,
  type Customer,
  createOrder,
  customer,
  GB,
  getOrder,
  ledgerMismatches,
  sandboxPay,
} from "../orders/helpers.ts";
import { ADMIN_TOKEN, admin, createDeal, getDeal, orderFor } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_TOKEN });
});
afterAll(() => t?.close());

const minutesHeld = (order: { created_at: string; expires_at: string }) =>
  Math.round((Date.parse(order.expires_at) - Date.parse(order.created_at)) / 60_000);

const cancel = (who: Customer, orderId: string) =>
  t.app.inject({ method: "POST", url: `/transactions/${orderId}/cancel`, headers: who.headers });

describe("a flash sale's stock cannot be hoarded", () => {
  it("one account holds at most 3 unpaid orders in a sale; paying or cancelling one frees a place", async () => {
    const deal = await createDeal(t.app, {
      deal_type: "flash_sale",
      deal_price: 0.5,
      deal_target_gb: 20_000,
    });
    const [hoarder, other] = await Promise.all([
      customer(t.app, "hoard-1@example.com"),
      customer(t.app, "hoard-2@example.com"),
    ]);
    const made = [];
    for (let i = 0; i < 3; i++) {
      const response = await orderFor(t.app, hoarder, { deal_id: deal.id, quantity: 1 });
      expect(response.statusCode, response.body).toBe(201);
      made.push(response.json().data.order_id as string);
    }
    const fourth = await orderFor(t.app, hoarder, { deal_id: deal.id, quantity: 1 });
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toEqual({
      success: false,
      message: "You already have 3 unpaid orders in this flash sale. Pay or cancel one before ordering more.",
    });
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(3000);
    // Others still buy; an ordinary purchase of the same account is not limited.
    expect((await orderFor(t.app, other, { deal_id: deal.id, quantity: 1 })).statusCode).toBe(201);
    await createOrder(t.app, hoarder, { amount: 5, network_type: "solana" });

    expect((await cancel(hoarder, made[0]!)).statusCode).toBe(200);
    expect((await orderFor(t.app, hoarder, { deal_id: deal.id, quantity: 1 })).statusCode).toBe(201);
    expect((await orderFor(t.app, hoarder, { deal_id: deal.id, quantity: 1 })).statusCode).toBe(409);
    expect((await sandboxPay(t.app, made[1]!)).statusCode).toBe(200);
    expect((await orderFor(t.app, hoarder, { deal_id: deal.id, quantity: 1 })).statusCode).toBe(201);
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(5000);
  });

  it("holds a flash-sale order's stock for 15 minutes, where an ordinary order waits 60", async () => {
    const deal = await createDeal(t.app, { deal_type: "flash_sale", deal_price: 0.5, deal_target_gb: 2000 });
    const buyer = await customer(t.app, "hold-1@example.com");
    const sale = await createOrder(t.app, buyer, { deal_id: deal.id, quantity: 1, network_type: "solana" });
    const ordinary = await createOrder(t.app, buyer, { amount: 5, network_type: "solana" });
    expect(minutesHeld(sale)).toBe(15);
    expect(minutesHeld(ordinary)).toBe(60);
    // The order page reads the same deadline.
    expect((await getOrder(t.app, buyer, sale.order_id)).expires_at).toBe(sale.expires_at);
  });
});

describe("a payment that arrives after the order's stock went to others", () => {
  it("is credited at the list price and says so; the sale is never oversold", async () => {
    // 1,000 GB of stock at 0.01 USD per GB: one unit costs 10 USD.
    const deal = await createDeal(t.app, { deal_type: "flash_sale", deal_price: 0.01, deal_target_gb: 1000 });
    const [late, prompt] = await Promise.all([
      customer(t.app, "late-payer@example.com"),
      customer(t.app, "prompt-payer@example.com"),
    ]);
    const first = await createOrder(t.app, late, { deal_id: deal.id, quantity: 1, network_type: "solana" });
    expect((await cancel(late, first.order_id)).statusCode).toBe(200);
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(0);
    const second = await createOrder(t.app, prompt, { deal_id: deal.id, quantity: 1, network_type: "base" });
    expect((await sandboxPay(t.app, second.order_id)).statusCode).toBe(200);

    const before = await balanceBytes(t.app, late);
    expect((await sandboxPay(t.app, first.order_id)).statusCode).toBe(200);
    // 10 USD at the list price of 3 USD per GB.
    const listBytes = Math.round((10 * GB) / 3);
    expect(await balanceBytes(t.app, late)).toBe(before + listBytes);
    const paid = await getOrder(t.app, late, first.order_id);
    expect(paid).toMatchObject({ payment_status: "paid", amount_usd: 10, gb: 3.33 });
    expect(paid.note).toBe("Sale sold out — credited at list price: 3.33 GB at 3 USD per GB.");
    const history = await t.app.inject({ method: "GET", url: "/history", headers: late.headers });
    expect(history.json().data[0].order).toMatchObject({ order_id: first.order_id, note: paid.note });

    // The operator's view of the payment says it was credited (a flash sale holds no deposit).
    const detail = await t.app.inject({
      method: "GET",
      url: `/admin/orders/${first.order_id}`,
      headers: admin,
    });
    const outcomes = (detail.json().data.events as { kind: string; detail: { outcome?: string } | null }[])
      .filter((event) => event.kind === "provider_event")
      .map((event) => event.detail?.outcome);
    expect(outcomes).toEqual(["credited"]);
    expect(detail.json().data.note).toBe(paid.note);

    // A replay changes nothing; the stock stays sold once.
    await sandboxPay(t.app, first.order_id);
    expect(await balanceBytes(t.app, late)).toBe(before + listBytes);
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(1000);
    const [sold] = await t.database.query<{ gb: string }>(
      `SELECT coalesce(sum(r.gb), 0) AS gb FROM deal_reservations r JOIN orders o ON o.id = r.order_id
        WHERE o.deal_id = $1 AND o.payment_status = 'paid' AND NOT r.released`,
      [deal.id],
    );
    expect(Number(sold!.gb)).toBe(1000);
    expect(await ledgerMismatches(t.app)).toEqual([]);
  });

  it("takes its stock again while the sale still has it", async () => {
    const deal = await createDeal(t.app, { deal_type: "flash_sale", deal_price: 0.01, deal_target_gb: 2000 });
    const buyer = await customer(t.app, "late-in-stock@example.com");
    const order = await createOrder(t.app, buyer, { deal_id: deal.id, quantity: 1, network_type: "solana" });
    expect((await cancel(buyer, order.order_id)).statusCode).toBe(200);
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(0);
    const before = await balanceBytes(t.app, buyer);
    await sandboxPay(t.app, order.order_id);
    expect(await balanceBytes(t.app, buyer)).toBe(before + 1000 * GB);
    expect((await getOrder(t.app, buyer, order.order_id)).note).toBeNull();
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(1000);
  });
});
