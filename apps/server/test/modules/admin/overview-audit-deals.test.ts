import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Customer, customer, sandboxPay } from "../orders/helpers.ts";
import {
  audit,
  type ConsoleApp,
  createConsoleApp,
  newDeal,
  OPERATOR_EMAIL,
  pendingPayout,
  tokenHeaders,
  waitingOrder,
} from "./helpers.ts";

let t: ConsoleApp;
let alice: Customer;

beforeAll(async () => {
  t = await createConsoleApp();
  alice = await customer(t.app, "alice@example.com");
});
afterAll(() => t?.close());

const call = (method: "GET" | "POST" | "PATCH", url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: t.operator.headers, ...(payload ? { payload } : {}) });

describe("overview", () => {
  it("counts revenue by day and provider, GB sold and used, new and active customers", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const before = (await call("GET", "/admin/overview?days=7")).json().data;
    const orderId = await waitingOrder(t.app, alice, 12);
    await sandboxPay(t.app, orderId);
    await t.database.query(
      `INSERT INTO usage_rollups (user_id, day, domain, proxy_type, bytes, requests)
       VALUES ($1, $2::date, 'example.com', 'mobile', 250000000, 3)`,
      [alice.id, today],
    );
    const response = await call("GET", "/admin/overview?days=7");
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({ days: 7, to: today });
    expect(data.revenue.by_day).toHaveLength(7);
    expect(data.revenue.total_cents - before.revenue.total_cents).toBe(1200);
    expect(data.revenue.by_day[6]).toMatchObject({ day: today });
    expect(data.revenue.by_provider).toEqual([
      { provider: "sandbox", cents: data.revenue.total_cents, orders: 1 },
    ]);
    expect(data.data.used_gb - before.data.used_gb).toBeCloseTo(0.25, 2);
    expect(data.data.sold_gb).toBeGreaterThan(before.data.sold_gb);
    expect(data.customers).toMatchObject({ active: 1, total: 2, new: 2, disabled: 0 });
    for (const days of [1, 30, 90]) {
      const other = await call("GET", `/admin/overview?days=${days}`);
      expect(other.json().data.revenue.by_day).toHaveLength(days);
    }
    for (const bad of ["days=2", "days=abc", "days=7&extra=1"]) {
      const refused = await call("GET", `/admin/overview?${bad}`);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json()).toEqual({ success: false, message: expect.any(String) });
    }
  });
});

describe("deals and payouts", () => {
  it("edits a deal before it starts, and answers 409 once it has", async () => {
    const deal = await newDeal(t.app);
    const edited = await call("PATCH", `/admin/deals/${deal.id}`, {
      deal_title: "Bigger",
      deal_target_gb: 900,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({
      deal_title: "Bigger",
      deal_target_gb: 900,
      status: "pending",
    });
    const bad = await call("PATCH", `/admin/deals/${deal.id}`, {
      deal_end_time: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe("deal_end_time must be after deal_start_time");
    expect((await call("PATCH", `/admin/deals/${deal.id}`, {})).statusCode).toBe(400);
    expect((await call("PATCH", `/admin/deals/${deal.id}`, { deal_type: "flash_sale" })).statusCode).toBe(
      400,
    );

    const live = await newDeal(t.app, -60_000);
    const late = await call("PATCH", `/admin/deals/${live.id}`, { deal_title: "Too late" });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe("A deal can be edited only before it starts; this one is live.");
    expect((await call("PATCH", "/admin/deals/zzzzzz", { deal_title: "x" })).statusCode).toBe(404);

    const rows = await audit(t.app, `subject=${deal.id}`);
    expect(rows.map((row) => row.action)).toEqual(["deal.update", "deal.create"]);
    expect(rows[0]).toMatchObject({
      actor: OPERATOR_EMAIL,
      before: expect.objectContaining({ deal_title: "Group buy", deal_target_gb: 500 }),
      after: expect.objectContaining({ deal_title: "Bigger", deal_target_gb: 900 }),
    });
  });

  it("lists each group buy's progress, and audits cancels and payouts", async () => {
    const bob = await customer(t.app, "bob@example.com");
    const payoutId = await pendingPayout(t.app, bob);
    const held = await newDeal(t.app, -60_000, { deal_target_gb: 1000 });
    const order = await t.app.inject({
      method: "POST",
      url: "/transactions",
      headers: bob.headers,
      payload: { amount: 250, method: "crypto", network_type: "solana", deal_id: held.id },
    });
    await sandboxPay(t.app, order.json().data.order_id);
    const list = (await call("GET", "/admin/deals")).json().data;
    expect(list.find((deal: { id: string }) => deal.id === held.id)).toMatchObject({
      deposited_usd: 250,
      participants: 1,
      progress_percent: 25,
    });

    const sent = await call("POST", `/admin/payouts/${payoutId}/sent`, {
      tx_hash: "0x9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a",
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await call("POST", `/admin/payouts/${payoutId}/failed`)).statusCode).toBe(409);
    expect((await call("POST", "/admin/payouts/not-a-uuid/sent", { tx_hash: "x" })).statusCode).toBe(400);
    const cancelled = await call("POST", `/admin/deals/${held.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    expect(await audit(t.app, `subject=${payoutId}`)).toEqual([
      expect.objectContaining({
        action: "payout.sent",
        subject_type: "payout",
        // The payout is named by its customer's e-mail, looked up through the deals module.
        subject_label: "bob@example.com",
        before: { status: "pending" },
        after: {
          status: "sent",
          tx_hash: "0x9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a",
        },
      }),
    ]);
    expect((await audit(t.app, `subject=${held.id}`)).map((row) => row.action)).toEqual([
      "deal.cancel",
      "deal.create",
    ]);
  });
});

describe("audit log", () => {
  it("lists every action newest first, filtered by actor, action and subject, a page at a time", async () => {
    const carol = await customer(t.app, "carol@example.com");
    for (const gb of [1, 2, 3]) {
      await t.app.inject({
        method: "POST",
        url: `/admin/customers/${carol.id}/credit`,
        headers: tokenHeaders,
        payload: { gb, note: `n${gb}` },
      });
    }
    const page = await t.app.inject({
      method: "GET",
      url: `/admin/audit?actor=admin-token&action=customer.credit&subject=${carol.id}&per_page=2&page=1`,
      headers: t.operator.headers,
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ page: 1, per_page: 2, total: 3 });
    expect(page.json().data.map((row: { note: string }) => row.note)).toEqual(["n3", "n2"]);
    // Each row names its subject as people know it: the account's e-mail, not only its id.
    expect(page.json().data[0]).toMatchObject({ subject_id: carol.id, subject_label: "carol@example.com" });
    expect(await audit(t.app, `actor=${OPERATOR_EMAIL}&subject=${carol.id}`)).toEqual([]);
    for (const bad of ["page=0", "per_page=501", "who=me", `actor=${"x".repeat(300)}`]) {
      const refused = await call("GET", `/admin/audit?${bad}`);
      expect(refused.statusCode, bad).toBe(400);
    }
  });

  it("cannot be changed, deleted or emptied, even by SQL", async () => {
    const rows = await audit(t.app);
    expect(rows.length).toBeGreaterThan(0);
    await expect(t.database.query("UPDATE admin_audit_log SET actor = 'someone'")).rejects.toThrow(
      /append-only/,
    );
    await expect(t.database.query("DELETE FROM admin_audit_log")).rejects.toThrow(/append-only/);
    await expect(t.database.query("TRUNCATE admin_audit_log")).rejects.toThrow(/append-only/);
    expect(await audit(t.app)).toEqual(rows);
  });
});
