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
   * times at once: with `percent`, a refund of that share of it in all so far (a running total,
   * as Stripe reports it: a smaller one than before gives back nothing more). `ofPaid` picks among
   * the orders whose deposit is recorded (paid), so refunds meet deposits often. */
  | {
      kind: "reverse";
      index: number;
      ofPaid: boolean;
      chargeback: boolean;
      percent: number | null;
      copies: number;
    }
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
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("reverse" as const),
      index: fc.nat({ max: 7 }),
      ofPaid: fc.boolean(),
      chargeback: fc.nat({ max: 3 }).map((n) => n === 0),
      percent: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null, freq: 4 }),
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
  steps: fc.array(fc.array(opArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }),
});

const ignoreRefusals = <T>(work: Promise<T>) => work.catch(() => undefined);

interface Totals {
  paid_in: string;
  paid_without_deposit: string;
  split_wrong: string;
  reversed_not_refunded: string;
  refunded: string;
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
  it("money paid in = held + credited + owed back + paid out (pending or sent payouts) + refunded, each credited once", async () => {
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
        /** The largest share (percent) of each order the provider has said it gave back. */
        const providerRefunded = new Map<string, number>();
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
              const paid = (
                await t.database.query<{ order_id: string }>(
                  "SELECT order_id FROM deal_deposits WHERE deal_id = $1 ORDER BY created_at, order_id",
                  [dealKey],
                )
              ).map((row) => row.order_id);
              const among = op.ofPaid && paid.length > 0 ? paid : orderIds;
              const orderId = among[op.index % Math.max(1, among.length)];
              if (!orderId) return;
              const share = op.chargeback || op.percent === null ? 100 : op.percent;
              providerRefunded.set(orderId, Math.max(providerRefunded.get(orderId) ?? 0, share));
              const reading = op.chargeback
                ? { status: "charged_back" as const }
                : op.percent === null
                  ? { status: "refunded" as const }
                  : { status: "refunded" as const, refunded: { amount: op.percent, of: 100 } };
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
             (SELECT coalesce(sum(o.amount_cents), 0) FROM orders o JOIN deal_deposits d ON d.order_id = o.id WHERE d.deal_id = $1) AS paid_in,
             (SELECT count(*) FROM orders o WHERE o.deal_id = $2 AND o.payment_status = 'paid'
               AND NOT EXISTS (SELECT 1 FROM deal_deposits d WHERE d.order_id = o.id)) AS paid_without_deposit,
             (SELECT count(*) FROM orders o JOIN deal_deposits d ON d.order_id = o.id
               WHERE d.deal_id = $1 AND d.amount_cents + d.refunded_cents <> o.amount_cents) AS split_wrong,
             (SELECT count(*) FROM orders o JOIN deal_deposits d ON d.order_id = o.id
               WHERE d.deal_id = $1 AND (d.status = 'reversed') <> (o.payment_status = 'refunded')) AS reversed_not_refunded,
             (SELECT coalesce(sum(refunded_cents), 0) FROM deal_deposits WHERE deal_id = $1) AS refunded,
             (SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'held'), 0) FROM deal_deposits WHERE deal_id = $1) AS held,
             (SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'credited'), 0) FROM deal_deposits WHERE deal_id = $1) AS credited,
             (SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'refundable'), 0) FROM deal_deposits WHERE deal_id = $1) AS refundable,
             (SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'paid_out'), 0) FROM deal_deposits WHERE deal_id = $1) AS paid_out,
             (SELECT coalesce(sum(amount_cents) FILTER (WHERE status IN ('pending', 'sent')), 0) FROM payouts WHERE deal_id = $1) AS payouts_live,
             (SELECT coalesce(sum(delta_bytes), 0) / 10000000 FROM ledger_entries
               WHERE kind IN ('deposit', 'refund', 'chargeback') AND split_part(reference, ':', 2) IN (SELECT order_id::text FROM deal_deposits WHERE deal_id = $1)
                 AND reference LIKE 'deal-deposit:%') AS ledger_cents,
             (SELECT deposited_cents FROM deals WHERE id = $1) AS deposited,
             (SELECT status FROM deals WHERE id = $1) AS status`,
          [dealKey, deal.id],
        );
        const n = (key: keyof Totals) => Number(totals![key]);
        // Conservation: every cent paid in is in exactly one place, a partial refund included.
        expect(n("paid_in")).toBe(
          n("held") + n("credited") + n("refundable") + n("paid_out") + n("refunded"),
        );
        // Each deposit: what it holds and what went back add up to what its order paid; it is
        // reversed exactly when all of it went back (and its order then says refunded).
        expect(n("split_wrong")).toBe(0);
        expect(n("reversed_not_refunded")).toBe(0);
        expect(n("paid_without_deposit")).toBe(0);
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
        // Never more booked as given back than the provider gave back (a $1 refund of a $50
        // deposit is $1, not the deposit).
        const split = await t.database.query<{ order_id: string; paid: string; refunded: string }>(
          `SELECT d.order_id, o.amount_cents AS paid, d.refunded_cents AS refunded
             FROM deal_deposits d JOIN orders o ON o.id = d.order_id WHERE d.deal_id = $1`,
          [dealKey],
        );
        for (const row of split) {
          const share = providerRefunded.get(row.order_id) ?? 0;
          expect(Number(row.refunded)).toBeLessThanOrEqual(Math.floor((Number(row.paid) * share) / 100));
        }
        const mismatches = await t.database.query(
          `SELECT u.id FROM users u LEFT JOIN ledger_entries l ON l.user_id = u.id
            GROUP BY u.id, u.balance_bytes HAVING u.balance_bytes <> coalesce(sum(l.delta_bytes), 0)`,
        );
        expect(mismatches).toEqual([]);
      }),
      {
        numRuns: 40,
        // Always among the runs: a held deposit refunded in part (then another deposit), and a
        // credited one refunded in part, then in full by a later running total.
        examples: [
          [
            {
              targetUsd: 50,
              refundAddress: [false, false, false],
              steps: [
                [{ kind: "deposit", user: 0, usd: 50 }],
                [{ kind: "pay", index: 0, copies: 1 }],
                [{ kind: "reverse", index: 0, ofPaid: true, chargeback: false, percent: 2, copies: 2 }],
                [{ kind: "deposit", user: 1, usd: 1 }],
              ],
            },
          ],
          [
            {
              targetUsd: 50,
              refundAddress: [true, false, false],
              steps: [
                [{ kind: "deposit", user: 0, usd: 60 }],
                [{ kind: "pay", index: 0, copies: 2 }],
                [{ kind: "reverse", index: 0, ofPaid: true, chargeback: false, percent: 25, copies: 1 }],
                [{ kind: "reverse", index: 0, ofPaid: true, chargeback: false, percent: 10, copies: 1 }],
                [{ kind: "reverse", index: 0, ofPaid: true, chargeback: false, percent: null, copies: 2 }],
              ],
            },
          ],
        ],
      },
    );
  }, 180_000);
});
