import { randomUUID } from "node:crypto";
import { applyLedgerEntry } from "@bytetoll/db";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentReading } from "../../../src/modules/payments/provider.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const USERS = 2;

type Op =
  /** A provider confirms order `order` (`percent` < 100 is a partial payment), `copies` times at once. */
  | { kind: "confirm"; order: number; percent: number; copies: number }
  /** The gateway's usage batch `batch` debits its user; a repeated batch id is a retried flush. */
  | { kind: "usage"; user: number; batch: number };

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
);

const scenarioArb = fc.record({
  // Orders: owner and amount in cents.
  orders: fc.array(
    fc.record({ user: fc.nat({ max: USERS - 1 }), cents: fc.integer({ min: 1, max: 500_000 }) }),
    {
      minLength: 1,
      maxLength: 5,
    },
  ),
  ops: fc.array(opArb, { minLength: 1, maxLength: 12 }),
});

const batchBytes = (batch: number) => (batch + 1) * 1_000_000;

describe("crediting under random concurrent interleavings", () => {
  it("keeps balance = sum of entries and never credits an order twice", async () => {
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

        // Everything at once: duplicate confirmations, partials, replays, usage debits and retries.
        const work: Promise<unknown>[] = [];
        for (const op of ops) {
          if (op.kind === "confirm") {
            const order = created[op.order % created.length]!;
            const reading: PaymentReading =
              op.percent === 100
                ? { status: "paid" }
                : { status: "partially_paid", paid: { amount: op.percent, of: 100 } };
            for (let i = 0; i < op.copies; i++) work.push(app.orders.settle(order.order_id, reading));
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

        // Each order holds the largest share any confirmation paid for, credited exactly once.
        for (const [index, order] of created.entries()) {
          const [row] = await t.database.query<{
            credited: string;
            bytes: string;
            status: string;
            entries: string;
          }>(
            `SELECT o.credited_bytes AS credited, o.bytes, o.payment_status AS status,
                    (SELECT coalesce(sum(delta_bytes), 0) FROM ledger_entries WHERE reference LIKE 'order:' || o.id || ':%') AS entries
               FROM orders o WHERE o.id = $1`,
            [order.order_id],
          );
          const total = Number(row!.bytes);
          const targets = ops
            .filter((op): op is Extract<Op, { kind: "confirm" }> => op.kind === "confirm")
            .filter((op) => op.order % created.length === index)
            .map((op) => (op.percent === 100 ? total : Math.floor((total * op.percent) / 100)));
          const expected = Math.max(0, ...targets);
          expect(Number(row!.credited)).toBe(expected);
          expect(Number(row!.entries)).toBe(expected);
          expect(row!.status).toBe(
            expected === 0 ? "waiting" : expected >= total ? "paid" : "partially_paid",
          );
        }

        // balance = sum of entries = credits − distinct usage batches, per user.
        for (const [i, userId] of users.entries()) {
          const [row] = await t.database.query<{ balance: string; sum: string }>(
            `SELECT u.balance_bytes AS balance,
                    (SELECT coalesce(sum(delta_bytes), 0) FROM ledger_entries WHERE user_id = u.id) AS sum
               FROM users u WHERE u.id = $1`,
            [userId],
          );
          const credited = await t.database.query<{ credited: string }>(
            "SELECT coalesce(sum(credited_bytes), 0) AS credited FROM orders WHERE user_id = $1",
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
      { numRuns: 150 },
    );
  }, 120_000);
});
