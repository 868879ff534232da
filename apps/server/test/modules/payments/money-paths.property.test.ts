import { randomUUID } from "node:crypto";
import { decodeDealId, FLASH_SALE_UNIT_GB } from "@bytetoll/contracts";
import { applyLedgerEntry } from "@bytetoll/db";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentReading } from "../../../src/lib/payment-provider.ts";
import type { App } from "../../../src/types.ts";
import { createTwoInstances, type TwoInstances } from "../../helpers/test-app.ts";
import { EVM_WALLET } from "../deals/helpers.ts";
import { ledgerMismatches } from "../orders/helpers.ts";
import { moneyTotals } from "./money-totals.ts";

// Every money path at once, on two server instances sharing one PostgreSQL: list-price orders,
// flash-sale orders (stock), group-buy deposits, full and partial payments, partial and full
// refunds, chargebacks, cancels, expiry sweeps, withdrawals, a group buy's end, and usage debits.
const postgres = process.env.DATABASE_URL;

let instances: TwoInstances | undefined;
beforeAll(async () => {
  if (postgres) instances = await createTwoInstances(postgres, "bytetoll_money", 16);
});
afterAll(() => instances?.close());

const USERS = 2;
const on = fc.nat({ max: 1 });
const index = fc.nat({ max: 7 });
const copies = fc.integer({ min: 1, max: 3 });
/** Refunds mostly meet paid orders (as providers send them), sometimes any order. */
const ofPaid = fc.nat({ max: 3 }).map((n) => n > 0);

type Op =
  | { kind: "order"; user: number; usd: number; on: number }
  | { kind: "flash"; user: number; on: number }
  | { kind: "deposit"; user: number; usd: number; on: number }
  /** The provider says order `index` is paid (`percent` < 100: in part), `copies` times at once. */
  | { kind: "pay"; index: number; percent: number; copies: number }
  /** A refund of `percent` in all so far (null: all of it), or a chargeback. */
  | { kind: "refund"; index: number; percent: number | null; copies: number; ofPaid: boolean }
  | { kind: "chargeback"; index: number; copies: number; ofPaid: boolean }
  | { kind: "cancel"; index: number; on: number }
  /** Order `index` comes due and both instances' sweeps run (orders, then deals' stock). */
  | { kind: "sweep"; index: number }
  | { kind: "withdraw"; user: number; copies: number }
  /** The group buy's end passes and both schedulers run. */
  | { kind: "end" }
  | { kind: "usage"; user: number; batch: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("order" as const),
      user: fc.nat({ max: USERS - 1 }),
      usd: fc.integer({ min: 3, max: 90 }),
      on,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("flash" as const), user: fc.nat({ max: USERS - 1 }), on }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("deposit" as const),
      user: fc.nat({ max: USERS - 1 }),
      usd: fc.integer({ min: 1, max: 40 }),
      on,
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("pay" as const),
      index,
      percent: fc.oneof(fc.constant(100), fc.integer({ min: 1, max: 99 })),
      copies,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("refund" as const),
      index,
      percent: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null }),
      copies,
      ofPaid,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("chargeback" as const), index, copies, ofPaid }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancel" as const), index, on }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("sweep" as const), index }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("withdraw" as const),
      user: fc.nat({ max: USERS - 1 }),
      copies,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("end" as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("usage" as const),
      user: fc.nat({ max: USERS - 1 }),
      batch: fc.nat({ max: 2 }),
    }),
  },
);

/** Steps run one after another; the ops of a step run at once. */
const stepsArb = fc.array(fc.array(opArb, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 9 });

function readingFor(op: Extract<Op, { kind: "pay" | "refund" | "chargeback" }>): PaymentReading {
  if (op.kind === "chargeback") return { status: "charged_back" };
  if (op.kind === "refund") {
    return op.percent === null
      ? { status: "refunded" }
      : { status: "refunded", refunded: { amount: op.percent, of: 100 } };
  }
  return op.percent === 100
    ? { status: "paid", payinHash: "DUMMY_TX_ID" }
    : { status: "partially_paid", paid: { amount: op.percent, of: 100 } };
}

const refused = <T>(work: Promise<T>) => work.catch(() => undefined);
const batchBytes = (batch: number) => (batch + 1) * 1_000_000;

async function newDeal(app: App, dealType: "flash_sale" | "group_buy", targetGb: number, run: string) {
  return app.deals.create({
    deal_type: dealType,
    deal_title: `${dealType} ${run}`,
    deal_description: "",
    deal_price: 0.5,
    deal_start_time: new Date(Date.now() - 60_000).toISOString(),
    deal_end_time: new Date(Date.now() + 3_600_000).toISOString(),
    deal_target_gb: targetGb,
  });
}

describe("every money path, two instances, random interleavings", () => {
  it.skipIf(!postgres)(
    "conserves money (balance = what orders and deposits credited − what was taken back − usage) and credits nothing twice",
    async () => {
      const { one, two, database } = instances!;
      const apps = [one.app, two.app];
      // What the runs did, printed at the end: a property that never reached a path proves nothing.
      const reached = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(stepsArb, async (steps) => {
          const run = randomUUID().slice(0, 8);
          const users: string[] = [];
          for (let i = 0; i < USERS; i++) {
            const [row] = await database.query<{ id: string }>(
              "INSERT INTO users (email) VALUES ($1) RETURNING id",
              [`m-${run}-${i}@example.com`],
            );
            users.push(row!.id);
          }
          const flash = await newDeal(one.app, "flash_sale", 2 * FLASH_SALE_UNIT_GB, run);
          const group = await newDeal(one.app, "group_buy", 60, run);
          const orders: { id: string; user: number }[] = [];
          const usage = new Map<string, number>();
          const pick = (i: number) => orders[i % Math.max(1, orders.length)];

          const runOp = async (op: Op): Promise<void> => {
            switch (op.kind) {
              case "order":
              case "flash":
              case "deposit": {
                const request =
                  op.kind === "order"
                    ? { amount: op.usd }
                    : op.kind === "flash"
                      ? { deal_id: flash.id, quantity: 1 }
                      : { deal_id: group.id, amount: op.usd };
                const order = await refused(
                  apps[op.on]!.orders.create(users[op.user]!, {
                    method: "crypto",
                    network_type: "solana",
                    ...request,
                  }),
                );
                if (order) orders.push({ id: order.order_id, user: op.user });
                return;
              }
              case "pay":
              case "refund":
              case "chargeback": {
                const paid =
                  op.kind === "pay" || !op.ofPaid
                    ? []
                    : await database.query<{ id: string }>(
                        "SELECT id FROM orders WHERE user_id = ANY($1::uuid[]) AND payment_status = 'paid' ORDER BY created_at, id",
                        [users],
                      );
                const order = paid.length > 0 ? paid[op.index % paid.length] : pick(op.index);
                if (!order) return;
                const reading = readingFor(op);
                await Promise.all(
                  Array.from({ length: op.copies }, (_, i) =>
                    refused(apps[i % 2]!.settlement.settle(order.id, reading)),
                  ),
                );
                return;
              }
              case "cancel": {
                const order = pick(op.index);
                if (order) await refused(apps[op.on]!.orders.cancel(users[order.user]!, order.id));
                return;
              }
              case "sweep": {
                const order = pick(op.index);
                if (!order) return;
                await database.query(
                  "UPDATE orders SET expires_at = now() - interval '1 second' WHERE id = $1",
                  [order.id],
                );
                await Promise.all(apps.map((app) => app.orders.expireDue()));
                await Promise.all(apps.map((app) => app.deals.releaseStock()));
                return;
              }
              case "withdraw":
                await Promise.all(
                  Array.from({ length: op.copies }, (_, i) =>
                    refused(apps[i % 2]!.deals.withdraw(users[op.user]!, group.id, EVM_WALLET)),
                  ),
                );
                return;
              case "end":
                await database.query(
                  "UPDATE deals SET end_time = now() - interval '1 millisecond' WHERE id = $1",
                  [decodeDealId(group.id)],
                );
                await Promise.all(apps.map((app) => app.deals.tick()));
                return;
              case "usage": {
                const reference = `usage:${run}:${op.user}:${op.batch}`;
                const applied = await applyLedgerEntry(database.db, {
                  userId: users[op.user]!,
                  kind: "usage",
                  reference,
                  deltaBytes: -batchBytes(op.batch),
                });
                if (applied.applied) usage.set(reference, batchBytes(op.batch));
                return;
              }
            }
          };
          for (const step of steps) await Promise.all(step.map(runOp));

          const totals = await moneyTotals(database, users, [flash.id, group.id]);
          // Each order's ledger entries are what its row says: credited once, taken back at most
          // what was credited; a deposit order is never credited as a purchase.
          expect(totals.orderMismatches).toEqual([]);
          // A flash sale's stock: what is reserved is what unreleased reservations hold, never
          // more than there is; stock given back never sits under an order paid at the sale price.
          expect(totals.stockMismatches).toEqual([]);
          // The group buy: every cent paid in is in exactly one place, the ledger holds each
          // credited deposit once.
          expect(totals.depositMismatches).toEqual([]);
          expect(await ledgerMismatches(one.app)).toEqual([]);
          for (const row of await database.query<{ what: string; n: string }>(
            `SELECT what, count(*) AS n FROM (
               SELECT CASE WHEN deal_id IS NULL THEN 'order' WHEN quantity IS NULL THEN 'deposit' ELSE 'flash' END
                      || ':' || payment_status || CASE WHEN reversed_bytes > 0 THEN ':reversed' ELSE '' END
                      || CASE WHEN note LIKE 'Sale sold out%' THEN ':list-price' ELSE '' END AS what
                 FROM orders WHERE user_id = ANY($1::uuid[])
               UNION ALL SELECT 'deposit-' || status FROM deal_deposits WHERE user_id = ANY($1::uuid[])
               UNION ALL SELECT 'payout-' || kind FROM payouts WHERE user_id = ANY($1::uuid[])) AS x GROUP BY what`,
            [users],
          )) {
            reached.set(row.what, (reached.get(row.what) ?? 0) + Number(row.n));
          }
          // Money conserved: a balance is exactly what orders and deposits credited, less what
          // refunds and chargebacks took back, less the usage debited (each batch once).
          for (const [i, userId] of users.entries()) {
            const used = [...usage]
              .filter(([reference]) => reference.startsWith(`usage:${run}:${i}:`))
              .reduce((sum, [, bytes]) => sum + bytes, 0);
            expect(totals.balances.get(userId)).toBe((totals.earned.get(userId) ?? 0) - used);
          }
        }),
        {
          numRuns: 60,
          // Always among the runs: a flash-sale order paid after its stock went to others (priced
          // at the list price), a deposit withdrawn while live, and a group buy activated by a
          // payment then refunded in part and charged back.
          examples: [
            [
              [
                [{ kind: "flash", user: 0, on: 0 }],
                [{ kind: "sweep", index: 0 }],
                [{ kind: "flash", user: 1, on: 1 }],
                [{ kind: "flash", user: 1, on: 0 }],
                [{ kind: "pay", index: 0, percent: 100, copies: 3 }],
              ],
            ],
            [
              [
                [{ kind: "deposit", user: 0, usd: 10, on: 1 }],
                [{ kind: "pay", index: 0, percent: 100, copies: 2 }],
                [{ kind: "withdraw", user: 0, copies: 3 }],
              ],
            ],
            [
              [
                [{ kind: "deposit", user: 1, usd: 40, on: 0 }],
                [{ kind: "pay", index: 0, percent: 100, copies: 2 }],
                [{ kind: "refund", index: 0, percent: 30, copies: 2, ofPaid: true }],
                [{ kind: "chargeback", index: 0, copies: 2, ofPaid: true }],
                [{ kind: "usage", user: 1, batch: 2 }],
              ],
            ],
          ],
        },
      );
      console.log("money paths reached:", JSON.stringify(Object.fromEntries([...reached].sort())));
    },
    120_000,
  );
});
