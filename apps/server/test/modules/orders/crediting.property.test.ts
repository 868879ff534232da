import { randomUUID } from "node:crypto";
import { applyLedgerEntry } from "@bytetoll/db";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentReading } from "../../../src/lib/payment-provider.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const USERS = 2;

type Op =
  /** A provider confirms order `order` (`percent` < 100 is a partial payment, credited nothing),
   * `copies` times at once. */
  | { kind: "confirm"; order: number; percent: number; copies: number }
  /** The gateway's usage batch `batch` debits its user; a repeated batch id is a retried flush. */
  | { kind: "usage"; user: number; batch: number }
  /** A refund of `percent` of order `order`'s payment (running total), or a chargeback of it. */
  | { kind: "refund"; order: number; percent: number; copies: number }
  | { kind: "chargeback"; order: number; copies: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("confirm" as const),
    order: fc.nat({ max: 4 }),
    percent: fc.oneof(fc.constant(100), fc.integer({ min: 1, max: 100 })),
    copies: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({
    kind: fc.constant("usage" as const),
    user: fc.nat({ max: USERS - 1 }),
    batch: fc.nat({ max: 3 }),
  }),
  fc.record({
    kind: fc.constant("refund" as const),
    order: fc.nat({ max: 4 }),
    percent: fc.oneof(fc.constant(100), fc.integer({ min: 1, max: 100 })),
    copies: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({
    kind: fc.constant("chargeback" as const),
    order: fc.nat({ max: 4 }),
    copies: fc.integer({ min: 1, max: 3 }),
  }),
);

function readingFor(op: Exclude<Op, { kind: "usage" }>): PaymentReading {
  if (op.kind === "chargeback") return { status: "charged_back" };
  if (op.kind === "refund") return { status: "refunded", refunded: { amount: op.percent, of: 100 } };
  return op.percent === 100
    ? { status: "paid" }
    : { status: "partially_paid", paid: { amount: op.percent, of: 100 } };
}

const scenarioArb = fc.record({
  // Orders: owner and amount in cents, from the least one order may be (1 GB at $3).
  orders: fc.array(
    fc.record({ user: fc.nat({ max: USERS - 1 }), cents: fc.integer({ min: 300, max: 500_000 }) }),
    {
      minLength: 1,
      maxLength: 5,
    },
  ),
  ops: fc.array(opArb, { minLength: 1, maxLength: 12 }),
});

const batchBytes = (batch: number) => (batch + 1) * 1_000_000;

describe("crediting under random concurrent interleavings", () => {
  it("keeps balance = sum of entries, never credits an order twice nor takes back more than it credited", async () => {
    const app = t.app;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ orders, ops }) => {
        const run = randomUUID();
        const users = await Promise.all(
          Array.from({ length: USERS }, async (_, i) => {
            const [row] = await t.database.query<{ id: string }>(
              "INSERT INTO users (email) VALUES ($1) RETURNING id",
              [`p-${run}-${i}@example.com`],
            );
            return row!.id;
          }),
        );
        // Purchases are created concurrently too.
        const created = await Promise.all(
          orders.map((o) =>
            app.orders.create(users[o.user]!, {
              amount: o.cents / 100,
              method: "crypto",
              network_type: "solana",
            }),
          ),
        );

        // Everything at once: duplicate confirmations, partials, refunds, chargebacks, replays,
        // usage debits and retries.
        const work: Promise<unknown>[] = [];
        for (const op of ops) {
          if (op.kind !== "usage") {
            const order = created[op.order % created.length]!;
            for (let i = 0; i < op.copies; i++)
              work.push(app.settlement.settle(order.order_id, readingFor(op)));
          } else {
            work.push(
              applyLedgerEntry(t.database.db, {
                userId: users[op.user]!,
                kind: "usage",
                reference: `usage:${run}:${op.user}:${op.batch}`,
                deltaBytes: -batchBytes(op.batch),
              }),
            );
          }
        }
        await Promise.all(work);
        // A chargeback delivered again after everything else takes back all that was credited.
        const disputed = new Set(
          ops.flatMap((op) => (op.kind === "chargeback" ? [op.order % created.length] : [])),
        );
        for (const index of disputed) {
          await app.settlement.settle(created[index]!.order_id, { status: "charged_back" });
        }

        // Each order's ledger entries are exactly what its row says it credited and took back.
        for (const [index, order] of created.entries()) {
          const [row] = await t.database.query<{
            credited: string;
            reversed: string;
            bytes: string;
            status: string;
            purchases: string;
            reversals: string;
          }>(
            `SELECT o.credited_bytes AS credited, o.reversed_bytes AS reversed, o.bytes,
                    o.payment_status AS status,
                    (SELECT coalesce(sum(delta_bytes), 0) FROM ledger_entries
                      WHERE kind = 'purchase' AND reference LIKE 'order:' || o.id || ':%') AS purchases,
                    (SELECT coalesce(sum(delta_bytes), 0) FROM ledger_entries
                      WHERE kind IN ('refund', 'chargeback')
                        AND (reference = 'order:' || o.id OR reference LIKE 'order:' || o.id || ':%')) AS reversals
               FROM orders o WHERE o.id = $1`,
            [order.order_id],
          );
          const total = Number(row!.bytes);
          const credited = Number(row!.credited);
          const reversed = Number(row!.reversed);
          const mine = ops.filter(
            (op): op is Exclude<Op, { kind: "usage" }> =>
              op.kind !== "usage" && op.order % created.length === index,
          );
          // A partial payment credits nothing: only a payment in full credits, and all of the order.
          const confirms = mine.filter((op): op is Extract<Op, { kind: "confirm" }> => op.kind === "confirm");
          const paidInFull = confirms.some((op) => op.percent === 100);
          const expected = paidInFull ? total : 0;
          expect(Number(row!.purchases)).toBe(credited);
          expect(Number(row!.reversals)).toBe(0 - reversed);
          expect(reversed).toBeGreaterThanOrEqual(0);
          expect(reversed).toBeLessThanOrEqual(credited);
          if (mine.every((op) => op.kind === "confirm")) {
            // Only payments: the whole order once any confirmation paid it in full, else nothing.
            expect(credited).toBe(expected);
            expect(row!.status).toBe(
              paidInFull ? "paid" : confirms.length > 0 ? "partially_paid" : "waiting",
            );
          } else {
            // A refunded order is closed, so it may hold less than a later confirmation paid for.
            expect(credited).toBeLessThanOrEqual(expected);
            if (credited > 0 && reversed === credited) expect(row!.status).toBe("refunded");
            if (disputed.has(index)) expect(reversed).toBe(credited);
          }
        }

        // balance = sum of entries = credits − refunds and chargebacks − distinct usage batches.
        for (const [i, userId] of users.entries()) {
          const [row] = await t.database.query<{ balance: string; sum: string }>(
            `SELECT u.balance_bytes AS balance,
                    (SELECT coalesce(sum(delta_bytes), 0) FROM ledger_entries WHERE user_id = u.id) AS sum
               FROM users u WHERE u.id = $1`,
            [userId],
          );
          const credited = await t.database.query<{ credited: string }>(
            "SELECT coalesce(sum(credited_bytes - reversed_bytes), 0) AS credited FROM orders WHERE user_id = $1",
            [userId],
          );
          const batches = new Set(
            ops.flatMap((op) => (op.kind === "usage" && op.user === i ? [op.batch] : [])),
          );
          const debited = [...batches].reduce((sum, batch) => sum + batchBytes(batch), 0);
          expect(Number(row!.balance)).toBe(Number(row!.sum));
          expect(Number(row!.balance)).toBe(Number(credited[0]!.credited) - debited);
        }
      }),
      // 80 random histories per run (each a fresh set of orders and payments on one database);
      // the money-paths property adds every other path on two PostgreSQL instances.
      { numRuns: 80 },
    );
  }, 240_000);
});
