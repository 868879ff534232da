import { decodeDealId } from "@bytetoll/contracts";
import type { TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/types.ts";
import { createTestApp, createTwoInstances, type TestApp } from "../../helpers/test-app.ts";
import {
  type Customer,
  customerWithoutEmail,
  ledgerMismatches,
  makeOverdue,
  sandboxPay,
} from "../orders/helpers.ts";
import { ADMIN_TOKEN, admin, createDeal, getDeal, orderFor } from "./helpers.ts";

// On PostgreSQL two instances share the database and really race; embedded PGlite runs one
// statement at a time, so there the same rounds run on one instance and prove the accounting only.
const postgres = process.env.DATABASE_URL;
const shared: Record<string, string> = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {};
/** Each round races three orders at once, one per way an order ends. */
const ROUNDS = postgres ? 15 : 3;
const RACES = ROUNDS * 3;
/** One flash-sale unit (1,000 GB) costs 10 USD at this price. */
const PRICE = 0.01;

let close: () => Promise<void>;
let database: TestDatabase;
let one: TestApp;
let two: TestApp;

beforeAll(async () => {
  if (postgres) {
    const instances = await createTwoInstances(postgres, "bytetoll_stock", 16, { ADMIN_TOKEN, ...shared });
    ({ database, one, two } = instances);
    close = () => instances.close();
  } else {
    one = await createTestApp({ ADMIN_TOKEN });
    two = one;
    database = one.database;
    close = () => one.close();
  }
});
afterAll(async () => {
  await close?.();
});

type Ending = "cancel" | "operator expire" | "expiry sweep";
const ENDINGS: Ending[] = ["cancel", "operator expire", "expiry sweep"];

/** Ends the order the way `ending` does, on `app`; the HTTP status (the expiry sweep has none:
 * 200 when it expired the order, 409 when it found it paid, 500 when it threw). */
async function endOrder(app: App, ending: Ending, who: Customer, orderId: string): Promise<number> {
  if (ending === "cancel") {
    const url = `/transactions/${orderId}/cancel`;
    return (await app.inject({ method: "POST", url, headers: who.headers })).statusCode;
  }
  if (ending === "operator expire") {
    const url = `/admin/orders/${orderId}/expire`;
    return (await app.inject({ method: "POST", url, headers: admin, payload: {} })).statusCode;
  }
  return app.orders.expireDue().then(
    (expired) => (expired > 0 ? 200 : 409),
    () => 500,
  );
}

/** The stock sweep, as each instance's scheduler runs it (500 when it threw, e.g. a deadlock). */
const sweep = (app: App) =>
  app.deals.releaseStock().then(
    () => 200,
    () => 500,
  );

async function stockFigures(dealId: string) {
  const [row] = await database.query<{ target: string; reserved: string; held: string; sold: string }>(
    `SELECT d.target_gb AS target, d.reserved_gb AS reserved,
            (SELECT coalesce(sum(r.gb), 0) FROM deal_reservations r
              WHERE r.deal_id = d.id AND NOT r.released) AS held,
            (SELECT coalesce(sum(o.quantity * 1000), 0) FROM orders o
              WHERE o.deal_id = $1 AND o.payment_status = 'paid' AND o.bytes = o.quantity * 1000 * 1e9) AS sold
       FROM deals d WHERE d.id = $2`,
    [dealId, decodeDealId(dealId)],
  );
  return {
    target: Number(row!.target),
    reserved: Number(row!.reserved),
    held: Number(row!.held),
    soldAtDealPrice: Number(row!.sold),
  };
}

describe("a flash sale's stock while orders end as their payments arrive", () => {
  it("never sells more than its stock and never deadlocks, whatever ends the order first", {
    timeout: 240_000,
  }, async () => {
    const deal = await createDeal(one.app, {
      deal_type: "flash_sale",
      deal_price: PRICE,
      deal_target_gb: RACES * 1000,
    });
    const buyers = await Promise.all(
      ENDINGS.map((_, i) =>
        customerWithoutEmail(database, one.config.JWT_SECRET, `stock-race-${i}@example.com`),
      ),
    );
    const counts = Object.fromEntries(ENDINGS.map((e) => [e, { races: 0, endedFirst: 0, paidFirst: 0 }]));
    const failures: string[] = [];
    /** One order, ended on one instance while it is paid on the other and both sweep. */
    async function race(round: number, ending: Ending, buyer: Customer) {
      const [endOn, payOn] = round % 2 ? [one, two] : [two, one];
      const made = await orderFor(endOn.app, buyer, { deal_id: deal.id, quantity: 1 });
      expect(made.statusCode, made.body).toBe(201);
      const orderId = made.json().data.order_id as string;
      if (ending === "expiry sweep") await makeOverdue(one.app, orderId);
      const [ended, paid, ...sweeps] = await Promise.all([
        endOrder(endOn.app, ending, buyer, orderId),
        sandboxPay(payOn.app, orderId),
        sweep(endOn.app),
        sweep(payOn.app),
      ]);
      for (const status of [ended, paid.statusCode, ...sweeps]) {
        if (status >= 500) failures.push(`round ${round} (${ending}): ${status}`);
      }
      counts[ending]!.races++;
      counts[ending]![ended === 200 ? "endedFirst" : "paidFirst"]++;
    }
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(ENDINGS.map((ending, i) => race(round, ending, buyers[i]!)));
    }
    await Promise.all([sweep(one.app), sweep(two.app)]);
    const afterRounds = await stockFigures(deal.id);

    // A second buyer takes whatever the sale still shows as left, and pays for it.
    const shown = await getDeal(two.app, deal.id);
    expect(shown.deal_reserved_gb).toBe(afterRounds.reserved);
    const leftUnits = (afterRounds.target - afterRounds.reserved) / 1000;
    const second = await customerWithoutEmail(
      database,
      one.config.JWT_SECRET,
      "stock-race-second@example.com",
    );
    if (leftUnits > 0) {
      const bought = await orderFor(two.app, second, { deal_id: deal.id, quantity: leftUnits });
      expect(bought.statusCode, bought.body).toBe(201);
      await sandboxPay(one.app, bought.json().data.order_id);
    }
    const refused = await orderFor(one.app, second, { deal_id: deal.id, quantity: 1 });
    const end = await stockFigures(deal.id);
    console.log(
      `flash-sale stock race (${postgres ? "PostgreSQL, two instances" : "PGlite, one instance"}):`,
      JSON.stringify({
        races: RACES,
        byEnding: counts,
        stockUnits: end.target / 1000,
        unitsSoldAtDealPrice: end.soldAtDealPrice / 1000,
        oversoldUnits: Math.max(0, end.soldAtDealPrice - end.target) / 1000,
        stockPutBackUnderPaidOrders: leftUnits,
        serverErrorsOrDeadlocks: failures.length,
      }),
    );
    expect(failures).toEqual([]);
    expect(end.soldAtDealPrice).toBeLessThanOrEqual(end.target);
    expect(leftUnits).toBe(0);
    expect(refused.statusCode, refused.body).toBe(409);
    // The deal's counter is exactly the stock its open reservations hold.
    expect(end.reserved).toBe(end.held);
    expect(await ledgerMismatches(one.app)).toEqual([]);
  });
});
