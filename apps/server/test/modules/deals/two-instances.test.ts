import type { TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTwoInstances, type TestApp, type TwoInstances } from "../../helpers/test-app.ts";
import { balanceBytes, customerWithoutEmail, GB, ledgerMismatches } from "../orders/helpers.ts";
import { ADMIN_TOKEN, admin, createDeal, EVM_WALLET, getDeal, orderFor } from "./helpers.ts";

const postgres = process.env.DATABASE_URL;

let instances: TwoInstances | undefined;
let database: TestDatabase;
let one: TestApp;
let two: TestApp;
beforeAll(async () => {
  if (!postgres) return;
  instances = await createTwoInstances(postgres, "bytetoll_deals", 12, { ADMIN_TOKEN });
  ({ database, one, two } = instances);
});
afterAll(async () => {
  await instances?.close();
});

const customers = (count: number, prefix: string) =>
  Promise.all(
    Array.from({ length: count }, (_, i) =>
      customerWithoutEmail(database, one.config.JWT_SECRET, `${prefix}-${i}@example.com`),
    ),
  );

/** Every instance runs its scheduler pass `times` times, all at once. */
const schedulersAtOnce = (times: number) =>
  Promise.all(Array.from({ length: times }, (_, i) => (i % 2 ? two : one).app.deals.tick()));

describe("two server instances on one PostgreSQL", () => {
  it.skipIf(!postgres)(
    "sell a flash sale's stock to concurrent buyers on both without overselling",
    async () => {
      const deal = await createDeal(one.app, {
        deal_type: "flash_sale",
        deal_price: 0.5,
        deal_target_gb: 5000,
      });
      const buyers = await customers(12, "two-flash");
      const results = await Promise.all(
        buyers.map((who, i) => orderFor((i % 2 ? two : one).app, who, { deal_id: deal.id, quantity: 1 })),
      );
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5);
      expect(results.filter((r) => r.statusCode === 409)).toHaveLength(7);
      expect((await getDeal(two.app, deal.id)).deal_reserved_gb).toBe(5000);
    },
  );

  it.skipIf(!postgres)("activate a group buy once when deposits paid on both reach the target", async () => {
    const deal = await createDeal(one.app, { deal_type: "group_buy", deal_price: 1, deal_target_gb: 400 });
    const depositors = await customers(6, "two-group");
    const orders = await Promise.all(
      depositors.map(
        async (who) => (await orderFor(one.app, who, { deal_id: deal.id, amount: 100 })).json().data,
      ),
    );
    // Each deposit's payment arrives twice, on both instances, while both schedulers run.
    await Promise.all([
      ...orders.flatMap((order) => [
        one.app.settlement.paySandbox(order.order_id),
        two.app.settlement.paySandbox(order.order_id),
      ]),
      schedulersAtOnce(4),
    ]);
    await schedulersAtOnce(4);
    expect((await getDeal(one.app, deal.id)).status).toBe("activated");
    const balances = await Promise.all(depositors.map((who) => balanceBytes(one.app, who)));
    // All six paid before activation or after it: each gets their 100 GB exactly once.
    expect(balances).toEqual(depositors.map(() => 100 * GB));
    const entries = await database.query<{ count: string }>(
      "SELECT count(*) FROM ledger_entries WHERE kind = 'deposit'",
    );
    expect(Number(entries[0]!.count)).toBe(6);
    expect(await ledgerMismatches(one.app)).toEqual([]);
  });

  it.skipIf(!postgres)(
    "expire an unmet group buy once, refunding each deposit once, whichever scheduler runs",
    async () => {
      const deal = await createDeal(one.app, { deal_type: "group_buy", deal_price: 1, deal_target_gb: 5000 });
      const depositors = await customers(4, "two-refund");
      await database.query("UPDATE users SET refund_address = $1 WHERE email LIKE 'two-refund-%'", [
        EVM_WALLET,
      ]);
      for (const who of depositors) {
        const order = (await orderFor(two.app, who, { deal_id: deal.id, amount: 50 })).json().data;
        await one.app.settlement.paySandbox(order.order_id);
      }
      await database.query(
        "UPDATE deals SET start_time = now() - interval '2 hours', end_time = now() - interval '1 second' WHERE status = 'live' AND deal_type = 'group_buy' AND target_gb = 5000",
      );
      await schedulersAtOnce(6);
      expect((await getDeal(two.app, deal.id)).status).toBe("expired");
      const payouts = await database.query<{ user_id: string; amount_cents: string }>(
        "SELECT user_id, amount_cents FROM payouts WHERE kind = 'refund'",
      );
      expect(payouts).toHaveLength(4);
      expect(new Set(payouts.map((p) => p.user_id)).size).toBe(4);
      expect(payouts.every((p) => Number(p.amount_cents) === 5000)).toBe(true);
    },
  );

  it.skipIf(!postgres)("cancel once when the operator's cancel reaches both at the same moment", async () => {
    const deal = await createDeal(one.app, { deal_type: "flash_sale", deal_price: 1, deal_target_gb: 1000 });
    const replies = await Promise.all(
      [one, two].map((t) =>
        t.app.inject({ method: "POST", url: `/admin/deals/${deal.id}/cancel`, headers: admin }),
      ),
    );
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it.skipIf(!postgres)("start a pending deal once when both schedulers see its start", async () => {
    const deal = await createDeal(one.app, {
      deal_type: "group_buy",
      deal_price: 1,
      deal_target_gb: 100,
      deal_start_time: new Date(Date.now() + 3_600_000).toISOString(),
      deal_end_time: new Date(Date.now() + 7_200_000).toISOString(),
    });
    await database.query(
      "UPDATE deals SET start_time = now() - interval '1 second' WHERE status = 'pending'",
    );
    const published: unknown[] = [];
    const original = [one.app.realtime.publishDeal, two.app.realtime.publishDeal];
    for (const t of [one, two]) t.app.realtime.publishDeal = (d) => published.push(d);
    try {
      await schedulersAtOnce(4);
    } finally {
      one.app.realtime.publishDeal = original[0]!;
      two.app.realtime.publishDeal = original[1]!;
    }
    expect((await getDeal(one.app, deal.id)).status).toBe("live");
    expect(published.filter((d) => (d as { id: string }).id === deal.id)).toHaveLength(1);
  });
});
