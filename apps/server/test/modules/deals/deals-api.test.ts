import { DEAL_UNAVAILABLE } from "@bytetoll/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { balanceBytes, customer, GB, ledgerMismatches, makeOverdue, sandboxPay } from "../orders/helpers.ts";
import {
  ADMIN_TOKEN,
  admin,
  createDeal,
  depositsOf,
  EVM_WALLET,
  getDeal,
  orderFor,
  payouts,
  totalDeposit,
  withdraw,
} from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_TOKEN });
});
afterAll(() => t?.close());

describe("operator deals", () => {
  it("validates a new deal and refuses anyone without the admin token", async () => {
    const bad = [
      { deal_type: "flash_sale", deal_price: 0, deal_target_gb: 10 },
      { deal_type: "flash_sale", deal_price: 1, deal_target_gb: 0 },
      {
        deal_type: "group_buy",
        deal_price: 1,
        deal_target_gb: 10,
        deal_end_time: new Date(Date.now() - 120_000).toISOString(),
      },
      { deal_type: "other", deal_price: 1, deal_target_gb: 10 },
      // Stock below one 1,000 GB unit could never be bought.
      { deal_type: "flash_sale", deal_price: 1, deal_target_gb: 500 },
    ];
    for (const fields of bad) {
      const response = await t.app.inject({
        method: "POST",
        url: "/admin/deals",
        headers: admin,
        payload: {
          deal_title: "x",
          deal_start_time: new Date(Date.now() - 60_000).toISOString(),
          deal_end_time: new Date(Date.now() + 60_000).toISOString(),
          ...fields,
        },
      });
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(response.json().success).toBe(false);
    }
    const anonymous = await t.app.inject({ method: "GET", url: "/admin/deals" });
    expect(anonymous.statusCode).toBe(401);
    const listed = await t.app.inject({ method: "GET", url: "/admin/deals", headers: admin });
    expect(listed.json().data).toEqual([]);
  });

  it("a deal whose start has passed is live at once; a future one is pending and listed publicly", async () => {
    const live = await createDeal(t.app, { deal_type: "flash_sale", deal_price: 0.5, deal_target_gb: 5000 });
    expect(live.status).toBe("live");
    expect(live.id).toMatch(/^[A-Za-z0-9]{8,}$/);
    const pending = await createDeal(t.app, {
      deal_type: "group_buy",
      deal_price: 1,
      deal_target_gb: 5000,
      deal_start_time: new Date(Date.now() + 3_600_000).toISOString(),
      deal_end_time: new Date(Date.now() + 7_200_000).toISOString(),
    });
    expect(pending.status).toBe("pending");
    const list = await t.app.inject({ method: "GET", url: "/deals/latestv2" });
    expect(list.statusCode).toBe(200);
    const ids = list.json().data.map((deal: { id: string }) => deal.id);
    expect(ids).toEqual(expect.arrayContaining([live.id, pending.id]));
    // Ended deals stay listed for 7 days after their end.
    const ended = await createDeal(t.app, { deal_type: "flash_sale", deal_price: 1, deal_target_gb: 1000 });
    const old = await createDeal(t.app, { deal_type: "flash_sale", deal_price: 1, deal_target_gb: 1001 });
    await t.database.query(
      `UPDATE deals SET status = 'expired', start_time = now() - interval '9 days',
         end_time = now() - CASE WHEN target_gb = 1000 THEN interval '6 days' ELSE interval '8 days' END
       WHERE target_gb IN (1000, 1001) AND status = 'live'`,
    );
    const later = (await t.app.inject({ method: "GET", url: "/deals/latestv2" })).json().data as {
      id: string;
    }[];
    expect(later.map((deal) => deal.id)).toContain(ended.id);
    expect(later.map((deal) => deal.id)).not.toContain(old.id);
    const unknown = await t.app.inject({ method: "GET", url: "/deals/not-a-deal" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(DEAL_UNAVAILABLE);
  });
});

describe("flash sale", () => {
  it("two customers buying past the stock at once: one is refused, nothing is oversold", async () => {
    const deal = await createDeal(t.app, { deal_type: "flash_sale", deal_price: 0.5, deal_target_gb: 3000 });
    const [ann, bob] = await Promise.all([
      customer(t.app, "fs-ann@example.com"),
      customer(t.app, "fs-bob@example.com"),
    ]);
    const results = await Promise.all([
      orderFor(t.app, ann, { deal_id: deal.id, quantity: 2 }),
      orderFor(t.app, bob, { deal_id: deal.id, quantity: 2 }),
    ]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409]);
    const refused = results.find((r) => r.statusCode === 409);
    expect(refused?.json().message).toBe("Only 1 × 1000 GB of this flash sale is left.");
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(2000);

    const order = results.find((r) => r.statusCode === 201)?.json().data;
    expect(order).toMatchObject({ amount_usd: 1000, gb: 2000, deal_id: deal.id, quantity: 2 });
    const buyer = order.user_id === ann.id ? ann : bob;
    const before = await balanceBytes(t.app, buyer);
    expect((await sandboxPay(t.app, order.order_id)).statusCode).toBe(200);
    expect(await balanceBytes(t.app, buyer)).toBe(before + 2000 * GB);
    expect(await ledgerMismatches(t.app)).toEqual([]);
  });

  it("an order that expires unpaid gives its stock back", async () => {
    const deal = await createDeal(t.app, { deal_type: "flash_sale", deal_price: 0.5, deal_target_gb: 1000 });
    const cy = await customer(t.app, "fs-cy@example.com");
    const created = await orderFor(t.app, cy, { deal_id: deal.id, quantity: 1 });
    expect(created.statusCode, created.body).toBe(201);
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(1000);
    await makeOverdue(t.app, created.json().data.order_id);
    await t.app.orders.expireDue();
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(0);
    expect((await orderFor(t.app, cy, { deal_id: deal.id, quantity: 1 })).statusCode).toBe(201);
  });

  it("takes the checkout link's total as the quantity it pays for", async () => {
    const deal = await createDeal(t.app, { deal_type: "flash_sale", deal_price: 0.5, deal_target_gb: 5000 });
    const gil = await customer(t.app, "fs-gil@example.com");
    const response = await orderFor(t.app, gil, { deal_id: deal.id, amount: 1500 });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toMatchObject({ quantity: 3, gb: 3000, amount_usd: 1500 });
  });

  it("refuses bad quantities and amounts with a 4xx and changes nothing", async () => {
    const deal = await createDeal(t.app, {
      deal_type: "flash_sale",
      deal_price: 0.5,
      deal_target_gb: 1_000_000,
    });
    const dan = await customer(t.app, "fs-dan@example.com");
    const bad: Record<string, unknown>[] = [
      { deal_id: deal.id, quantity: 0 },
      { deal_id: deal.id, quantity: -1 },
      { deal_id: deal.id, quantity: 1.5 },
      { deal_id: deal.id, quantity: 1e9 },
      { deal_id: deal.id, quantity: "2" },
      { deal_id: deal.id, amount: 100 },
      { deal_id: deal.id, quantity: 1, amount: 1 },
    ];
    for (const payload of bad) {
      const response = await orderFor(t.app, dan, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().success).toBe(false);
    }
    for (const id of ["zzzzzzzz", "1", "", "0x"]) {
      const response = await orderFor(t.app, dan, { deal_id: id, quantity: 1 });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(0);
    const orders = await t.app.inject({ method: "GET", url: "/transactions", headers: dan.headers });
    expect(orders.json().total).toBe(0);
  });
});

describe("group buy", () => {
  it("three deposit, one withdraws, the target is reached: activated at once, each remaining depositor has exactly their GB", async () => {
    const deal = await createDeal(t.app, { deal_type: "group_buy", deal_price: 1, deal_target_gb: 500 });
    const [a, b, c] = await Promise.all([
      customer(t.app, "gb-a@example.com"),
      customer(t.app, "gb-b@example.com"),
      customer(t.app, "gb-c@example.com"),
    ]);
    const deposit = async (who: typeof a, amount: number) => {
      const response = await orderFor(t.app, who, { deal_id: deal.id, amount });
      expect(response.statusCode, response.body).toBe(201);
      const order = response.json().data;
      expect((await sandboxPay(t.app, order.order_id)).statusCode).toBe(200);
      return order.order_id as string;
    };
    const start = await Promise.all([a, b, c].map((who) => balanceBytes(t.app, who)));
    await deposit(a, 200);
    await deposit(b, 100);
    await deposit(c, 150);
    expect(await totalDeposit(t.app, b, deal.id)).toBe(100);
    // Paid deposits are held, not credited.
    expect(await balanceBytes(t.app, a)).toBe(start[0]);
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(450);

    const bad = await withdraw(t.app, b, deal.id, { wallet_address: "  " });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.wallet_address[0]).toBe("Please enter a wallet address");
    expect((await withdraw(t.app, b, deal.id, { wallet_address: "not-a-wallet" })).statusCode).toBe(422);
    const withdrawn = await withdraw(t.app, b, deal.id, { wallet_address: EVM_WALLET });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json().success).toBe(true);
    expect(await totalDeposit(t.app, b, deal.id)).toBe(0);
    expect((await withdraw(t.app, b, deal.id, { wallet_address: EVM_WALLET })).statusCode).toBe(409);
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(350);

    await deposit(c, 150);
    // Reached by that payment: activated in the same settlement, not at the next scheduler pass.
    expect((await getDeal(t.app, deal.id)).status).toBe("activated");
    expect(await balanceBytes(t.app, a)).toBe(start[0]! + 200 * GB);
    expect(await balanceBytes(t.app, b)).toBe(start[1]);
    expect(await balanceBytes(t.app, c)).toBe(start[2]! + 300 * GB);
    const payout = (await payouts(t.app)).find((p) => p.user_id === b.id);
    expect(payout).toMatchObject({
      kind: "withdrawal",
      amount_usd: 100,
      status: "pending",
      wallet_address: EVM_WALLET,
    });
    // The card shows what each one deposited: it bought data, so none of it is withdrawable.
    expect(await depositsOf(t.app, c, deal.id)).toEqual({ total_deposit: 0, credited_deposit: 300 });
    expect(await depositsOf(t.app, b, deal.id)).toEqual({ total_deposit: 0, credited_deposit: 0 });
    const activated = await withdraw(t.app, a, deal.id, { wallet_address: EVM_WALLET });
    expect(activated.statusCode).toBe(409);
    // A second scheduler pass credits nothing again.
    await t.app.deals.tick();
    expect(await balanceBytes(t.app, a)).toBe(start[0]! + 200 * GB);
    expect(await ledgerMismatches(t.app)).toEqual([]);

    // A hash that is no transaction, or of the other chain family than the (EVM) wallet: 400, still pending.
    for (const [tx_hash, message] of [
      ["junk", "That is not a transaction hash"],
      ["0xabc", "That is not a transaction hash"],
      [`5${"K".repeat(87)}`, "This wallet is on an EVM chain"],
    ]) {
      const refused = await t.app.inject({
        method: "POST",
        url: `/admin/payouts/${payout!.id}/sent`,
        headers: admin,
        payload: { tx_hash },
      });
      expect(refused.statusCode, tx_hash).toBe(400);
      expect(refused.json().message).toContain(message);
    }
    const sent = await t.app.inject({
      method: "POST",
      url: `/admin/payouts/${payout!.id}/sent`,
      headers: admin,
      payload: { tx_hash: "0x9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a" },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({
      status: "sent",
      tx_hash: "0x9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a",
    });
    const again = await t.app.inject({
      method: "POST",
      url: `/admin/payouts/${payout!.id}/sent`,
      headers: admin,
      payload: { tx_hash: "0x9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a" },
    });
    expect(again.statusCode).toBe(409);
  });

  it("an unmet group buy refunds every deposit at its end: to the refund address, or withdrawable with one", async () => {
    const deal = await createDeal(t.app, { deal_type: "group_buy", deal_price: 1, deal_target_gb: 5000 });
    const [withAddress, without] = await Promise.all([
      customer(t.app, "gb-refund-a@example.com"),
      customer(t.app, "gb-refund-b@example.com"),
    ]);
    await t.database.query("UPDATE users SET refund_address = $1 WHERE id = $2", [
      EVM_WALLET,
      withAddress.id,
    ]);
    for (const who of [withAddress, without]) {
      const order = (await orderFor(t.app, who, { deal_id: deal.id, amount: 100 })).json().data;
      await sandboxPay(t.app, order.order_id);
    }
    await t.database.query(
      "UPDATE deals SET start_time = now() - interval '2 hours', end_time = now() - interval '1 second' WHERE id = (SELECT max(id) FROM deals)",
    );
    await t.app.deals.tick();
    expect((await getDeal(t.app, deal.id)).status).toBe("expired");
    const refund = (await payouts(t.app)).find((p) => p.user_id === withAddress.id);
    expect(refund).toMatchObject({ kind: "refund", amount_usd: 100, wallet_address: EVM_WALLET });
    expect(await totalDeposit(t.app, withAddress, deal.id)).toBe(0);
    expect(await totalDeposit(t.app, without, deal.id)).toBe(100);
    const claimed = await withdraw(t.app, without, deal.id, { wallet_address: EVM_WALLET });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const own = await t.app.inject({ method: "GET", url: "/payouts", headers: without.headers });
    expect(own.json().data).toEqual([
      expect.objectContaining({ kind: "refund", amount_usd: 100, status: "pending" }),
    ]);
    expect((await payouts(t.app)).find((p) => p.user_id === without.id)?.kind).toBe("refund");
    expect(await totalDeposit(t.app, without, deal.id)).toBe(0);
  });

  it("a cancelled deal refuses orders and refunds its deposits", async () => {
    const deal = await createDeal(t.app, { deal_type: "group_buy", deal_price: 1, deal_target_gb: 5000 });
    const eve = await customer(t.app, "gb-cancel@example.com");
    const order = (await orderFor(t.app, eve, { deal_id: deal.id, amount: 100 })).json().data;
    await sandboxPay(t.app, order.order_id);
    const cancelled = await t.app.inject({
      method: "POST",
      url: `/admin/deals/${deal.id}/cancel`,
      headers: admin,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data.status).toBe("cancelled");
    const refused = await orderFor(t.app, eve, { deal_id: deal.id, amount: 100 });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe(DEAL_UNAVAILABLE);
    expect(await totalDeposit(t.app, eve, deal.id)).toBe(100);
    const twice = await t.app.inject({
      method: "POST",
      url: `/admin/deals/${deal.id}/cancel`,
      headers: admin,
    });
    expect(twice.statusCode).toBe(409);
  });

  it("answers unknown deal and payout ids, and withdrawals from a flash sale, with a 4xx", async () => {
    const flash = await createDeal(t.app, { deal_type: "flash_sale", deal_price: 1, deal_target_gb: 1000 });
    const hal = await customer(t.app, "gb-ids@example.com");
    for (const id of ["zzzzzzzz", "0", "%20"]) {
      expect((await withdraw(t.app, hal, id, { wallet_address: EVM_WALLET })).statusCode).toBe(404);
      const deposits = await t.app.inject({
        method: "GET",
        url: `/deals/${id}/deposits`,
        headers: hal.headers,
      });
      expect(deposits.statusCode).toBe(404);
      const cancel = await t.app.inject({ method: "POST", url: `/admin/deals/${id}/cancel`, headers: admin });
      expect(cancel.statusCode).toBe(404);
    }
    expect((await withdraw(t.app, hal, flash.id, { wallet_address: EVM_WALLET })).statusCode).toBe(409);
    // A malformed payout id is refused by its schema, an unknown well-formed one is not found.
    for (const [id, status] of [
      ["not-a-uuid", 400],
      ["00000000-0000-4000-8000-000000000000", 404],
    ] as const) {
      const sent = await t.app.inject({
        method: "POST",
        url: `/admin/payouts/${id}/sent`,
        headers: admin,
        payload: { tx_hash: "0x9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a" },
      });
      expect(sent.statusCode).toBe(status);
    }
    const anonymous = await t.app.inject({ method: "GET", url: `/deals/${flash.id}/deposits` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("refuses fractional, negative and huge deposits and quantities on a group buy", async () => {
    const deal = await createDeal(t.app, { deal_type: "group_buy", deal_price: 1, deal_target_gb: 5000 });
    const fay = await customer(t.app, "gb-bad@example.com");
    for (const payload of [
      { deal_id: deal.id, amount: 0.5 },
      { deal_id: deal.id, amount: 10.5 },
      { deal_id: deal.id, amount: -5 },
      { deal_id: deal.id, amount: 1e12 },
      { deal_id: deal.id, quantity: 1 },
    ]) {
      const response = await orderFor(t.app, fay, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(0);
  });
});
