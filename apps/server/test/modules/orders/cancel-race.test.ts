import type { TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTwoInstances, type TestApp, type TwoInstances } from "../../helpers/test-app.ts";
import { type Customer, createOrder, customerWithoutEmail, ledgerMismatches, sandboxPay } from "./helpers.ts";

// Cancel and payment race for real only on PostgreSQL (PGlite runs one statement at a time), on
// two instances that share Redis as in production.
const postgres = process.env.DATABASE_URL;
const shared: Record<string, string> = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {};
const ROUNDS = 24;

let instances: TwoInstances | undefined;
let database: TestDatabase;
let one: TestApp;
let two: TestApp;
let buyer: Customer;

beforeAll(async () => {
  if (!postgres) return;
  instances = await createTwoInstances(postgres, "bytetoll_cancel", 12, shared);
  ({ database, one, two } = instances);
  buyer = await customerWithoutEmail(database, one.config.JWT_SECRET, "cancel-race@example.com");
});
afterAll(async () => {
  await instances?.close();
});

describe("cancelling an order while its payment is credited, on two instances", () => {
  it.skipIf(!postgres)("ends paid and credited once, never cancelled with a credit", async () => {
    const outcomes = { cancelledFirst: 0, paidFirst: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const order = await createOrder(one.app, buyer, { amount: 3, network_type: "solana" });
      const cancelOn = round % 2 ? two : one;
      const payOn = round % 2 ? one : two;
      const [cancelled, paid] = await Promise.all([
        cancelOn.app.inject({
          method: "POST",
          url: `/transactions/${order.order_id}/cancel`,
          headers: buyer.headers,
        }),

        sandboxPay(payOn.app, order.order_id),
      ]);
      expect(paid.statusCode, paid.body).toBe(200);
      if (cancelled.statusCode === 200) {
        // The cancel committed first and answered before the payment reached the order: the
        // payment, credited after the answer, reaches the customer's page live.
        expect(cancelled.json().data.payment_status).toBe("cancelled");
        // When the credit committed cannot be read from the ledger (its created_at is when its
        // transaction began, which may be before the cancel while it waited for the row): what
        // matters is the end state below — paid, credited once — and that it reached the order.
        outcomes.cancelledFirst++;
      } else {
        expect(cancelled.statusCode, cancelled.body).toBe(409);
        expect(cancelled.json().message).toBe("Only an unpaid order can be cancelled: this one is paid.");
        outcomes.paidFirst++;
      }
      const [row] = await database.query<{ payment_status: string; credited_bytes: string; entries: string }>(
        `SELECT o.payment_status, o.credited_bytes,
                (SELECT count(*) FROM ledger_entries l
                  WHERE l.kind = 'purchase' AND l.reference LIKE 'order:' || o.id || ':%') AS entries
           FROM orders o WHERE o.id = $1`,
        [order.order_id],
      );
      expect(row).toEqual({ payment_status: "paid", credited_bytes: "1000000000", entries: "1" });
    }
    expect(outcomes.cancelledFirst + outcomes.paidFirst).toBe(ROUNDS);
    expect(await ledgerMismatches(one.app)).toEqual([]);
    const [never] = await database.query<{ count: string }>(
      "SELECT count(*) FROM orders WHERE payment_status = 'cancelled' AND credited_bytes > 0",
    );
    expect(never?.count).toBe("0");
  });

  it.skipIf(!postgres)("shows a cancel made on one instance in the other's lists and reads", async () => {
    const order = await createOrder(two.app, buyer, { amount: 6, network_type: "base" });
    // The other instance has the history page cached before the cancel.
    const before = await two.app.inject({ method: "GET", url: "/transactions", headers: buyer.headers });
    expect(before.json().data[0]).toMatchObject({ order_id: order.order_id, payment_status: "waiting" });
    const cancelled = await one.app.inject({
      method: "POST",
      url: `/transactions/${order.order_id}/cancel`,
      headers: buyer.headers,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await expect
      .poll(
        async () =>
          (await two.app.inject({ method: "GET", url: "/transactions", headers: buyer.headers })).json()
            .data[0].payment_status,
        { timeout: 5_000 },
      )
      .toBe("cancelled");
    const history = await two.app.inject({ method: "GET", url: "/history", headers: buyer.headers });
    expect(history.json().data[0]).toMatchObject({ kind: "order", order: { payment_status: "cancelled" } });
  });
});
