import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { EVM_WALLET } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const USERS = 3;

type Op =
  /** A deposit order of `usd` by `user` (refused once the deal is over). */
  | { kind: "deposit"; user: number; usd: number }
  /** The `index`-th deposit order is paid, `copies` times at once (maybe after the deal ended). */
  | { kind: "pay"; index: number; copies: number }
  /** The provider refunds (or reverses with a chargeback) the `index`-th deposit order, `copies`
   * times at once. */
  | { kind: "reverse"; index: number; chargeback: boolean; copies: number }
  /** The user withdraws, `copies` times at once. */
  | { kind: "withdraw"; user: number; copies: number }
  /** The deal's end passes and `copies` scheduler passes run at once. */
  | { kind: "end"; copies: number }
  | { kind: "cancel"; copies: number }
  /** The operator settles the `index`-th payout as sent or failed. */
  | { kind: "payout"; index: number; sent: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("deposit" as const),
      user: fc.nat({ max: USERS - 1 }),
      usd: fc.integer({ min: 1, max: 300 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("pay" as const),
      index: fc.nat({ max: 7 }),
      copies: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("withdraw" as const),
      user: fc.nat({ max: USERS - 1 }),
      copies: fc.integer({ min: 1, max: 2 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("end" as const), copies: fc.integer({ min: 1, max: 3 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("reverse" as const),
      index: fc.nat({ max: 7 }),
      chargeback: fc.boolean(),
      copies: fc.integer({ min: 1, max: 2 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("cancel" as const), copies: fc.integer({ min: 1, max: 2 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("payout" as const),
      index: fc.nat({ max: 5 }),
      sent: fc.boolean(),
    }),
  },
);

const scenarioArb = fc.record({
  targetUsd: fc.integer({ min: 50, max: 600 }),
  /** Which users have a refund address. */
  refundAddress: fc.array(fc.boolean(), { minLength: USERS, maxLength: USERS }),
  /** Steps run one after another; the ops of a step run concurrently. */
  steps: fc.array(fc.array(opArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
});

const ignoreRefusals = <T>(work: Promise<T>) => work.catch(() => undefined);

interface Totals {
  paid: string;
  held: string;
  credited: string;
  refundable: string;
  paid_out: string;
  payouts_live: string;
  ledger_cents: string;
  deposited: string;
  status: string;
}

describe("group-buy money under random concurrent interleavings", () => {
  it("paid deposits = credited + paid out (pending or sent payouts) + held + owed back, each credited once", async () => {
    const app = t.app;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ targetUsd, refundAddress, steps }) => {
        const run = randomUUID();
        const users: string[] = [];
        for (let i = 0; i < USERS; i++) {
          const [row] = await t.database.query<{ id: string }>(
            "INSERT INTO users (email, refund_address) VALUES ($1, $2) RETURNING id",
            [`gp-${run}-${i}@example.com`, refundAddress[i] ? EVM_WALLET : null],
          );
          users.push(row!.id);
        }
        const deal = await app.deals.create({
          deal_type: "group_buy",
          deal_title: `P ${run}`,
          deal_description: "",
          deal_price: 1,
          deal_start_time: new Date(Date.now() - 60_000).toISOString(),
          deal_end_time: new Date(Date.now() + 3_600_000).toISOString(),
          deal_target_gb: targetUsd,
        });
        const dealKey = (await t.database.query<{ id: number }>("SELECT max(id) AS id FROM deals"))[0]!.id;

        const orderIds: string[] = [];
        const runOp = async (op: Op) => {
          switch (op.kind) {
            case "deposit": {
              const order = await ignoreRefusals(
                app.orders.create(users[op.user]!, {
                  amount: op.usd,
                  method: "crypto",
                  network_type: "solana",
                  deal_id: deal.id,
                }),
              );
              if (order) orderIds.push(order.order_id);
              return;
            }
            case "pay": {
              const orderId = orderIds[op.index % Math.max(1, orderIds.length)];
              if (!orderId) return;
              await Promise.all(Array.from({ length: op.copies }, () => app.settlement.paySandbox(orderId)));
              return;
            }
            case "reverse": {
              const orderId = orderIds[op.index % Math.max(1, orderIds.length)];
              if (!orderId) return;
              const reading = { status: op.chargeback ? ("charged_back" as const) : ("refunded" as const) };
              await Promise.all(
                Array.from({ length: op.copies }, () => app.settlement.settle(orderId, reading)),
              );
              return;
            }
            case "withdraw": {
              const tries = Array.from({ length: op.copies }, () =>
                app.deals.withdraw(users[op.user]!, deal.id, EVM_WALLET),
              );
              await Promise.all(tries.map(ignoreRefusals));
              return;
            }
            case "end": {
              await t.database.query(
                "UPDATE deals SET start_time = least(start_time, now() - interval '1 hour'), end_time = now() - interval '1 millisecond' WHERE id = $1",
                [dealKey],
              );
              await Promise.all(Array.from({ length: op.copies }, () => app.deals.tick()));
              return;
            }
            case "cancel":
              await Promise.all(
                Array.from({ length: op.copies }, () => ignoreRefusals(app.deals.cancel(deal.id))),
              );
              return;
            case "payout": {
              const list = await t.database.query<{ id: string }>(
                "SELECT id FROM payouts WHERE deal_id = $1 ORDER BY created_at, id",
                [dealKey],
              );
              const payout = list[op.index % Math.max(1, list.length)];
              if (!payout) return;
              await ignoreRefusals(
                op.sent ? app.deals.payoutSent(payout.id, "0xhash") : app.deals.payoutFailed(payout.id),
              );
              return;
            }
          }
        };
        for (const step of steps) await Promise.all(step.map(runOp));

        const [totals] = await t.database.query<Totals>(
          `SELECT
             (SELECT coalesce(sum(amount_cents), 0) FROM orders WHERE deal_id = $2 AND payment_status = 'paid') AS paid,
             (SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'held'), 0) FROM deal_deposits WHERE deal_id = $1) AS held,
             (SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'credited'), 0) FROM deal_deposits WHERE deal_id = $1) AS credited,
             (SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'refundable'), 0) FROM deal_deposits WHERE deal_id = $1) AS refundable,
             (SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'paid_out'), 0) FROM deal_deposits WHERE deal_id = $1) AS paid_out,
             (SELECT coalesce(sum(amount_cents) FILTER (WHERE status IN ('pending', 'sent')), 0) FROM payouts WHERE deal_id = $1) AS payouts_live,
             (SELECT coalesce(sum(delta_bytes), 0) / 10000000 FROM ledger_entries
               WHERE kind IN ('deposit', 'refund', 'chargeback') AND reference IN (SELECT 'deal-deposit:' || order_id FROM deal_deposits WHERE deal_id = $1)) AS ledger_cents,
             (SELECT deposited_cents FROM deals WHERE id = $1) AS deposited,
             (SELECT status FROM deals WHERE id = $1) AS status`,
          [dealKey, deal.id],
        );
        const n = (key: keyof Totals) => Number(totals![key]);
        // Conservation: every paid deposit is in exactly one place.
        expect(n("paid")).toBe(n("held") + n("credited") + n("refundable") + n("paid_out"));
        // Money paid out is exactly what the live (pending or sent) payouts carry.
        expect(n("paid_out")).toBe(n("payouts_live"));
        // Credited deposits reached the ledger once each, at 1 USD per GB (reversed ones taken back).
        expect(n("ledger_cents")).toBe(n("credited"));
        // The deal counts what is held or credited towards its target.
        expect(n("deposited")).toBe(n("held") + n("credited"));
        // Nothing is held once the deal is over; credit only ever follows activation.
        if (totals!.status !== "live") expect(n("held")).toBe(0);
        if (totals!.status !== "activated") expect(n("credited")).toBe(0);
        if (totals!.status === "live") expect(n("held")).toBeLessThan(targetUsd * 100);
        const mismatches = await t.database.query(
          `SELECT u.id FROM users u LEFT JOIN ledger_entries l ON l.user_id = u.id
            GROUP BY u.id, u.balance_bytes HAVING u.balance_bytes <> coalesce(sum(l.delta_bytes), 0)`,
        );
        expect(mismatches).toEqual([]);
      }),
      { numRuns: 40 },
    );
  }, 180_000);
});
