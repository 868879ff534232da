import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_APP_URL, type TestApp } from "../../helpers/test-app.ts";
import { type Customer, customer } from "../orders/helpers.ts";
import { eventually, nothingLeftToSend, startReceiver } from "../webhooks/receiver.ts";
import {
  adjustBalance,
  armed,
  balanceBytesOf,
  FAST,
  GB,
  outboxSubjects,
  putSettings,
  readSettings,
  saveSandboxCard,
  topupOrders,
} from "./helpers.ts";

let t: TestApp;
let alice: Customer;
beforeAll(async () => {
  t = await createTestApp(FAST);
  alice = await customer(t.app, "topup-alice@example.com");
});
afterAll(async () => {
  await t?.close();
});

const on = { enabled: true, threshold_gb: 1, amount_usd: 3, monthly_cap_usd: 7 };

describe("auto top-up settings", () => {
  it("start off, with the defaults and no card", async () => {
    expect(await readSettings(t.app, alice)).toEqual({
      enabled: false,
      threshold_gb: 1,
      amount_usd: 50,
      monthly_cap_usd: 500,
      card: null,
      spent_this_month_usd: 0,
      failures: 0,
    });
  });

  it("refuse to turn on without a saved card, and bad fields with a 400 naming the field; nothing changes", async () => {
    const noCard = await putSettings(t.app, alice, on);
    expect(noCard.statusCode).toBe(409);
    expect(noCard.json()).toEqual({ success: false, message: "Add a card first" });
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ ...on, enabled: false, amount_usd: 2 }, "amount_usd"],
      [{ ...on, enabled: false, amount_usd: 3.333 }, "amount_usd"],
      [{ ...on, enabled: false, threshold_gb: "one" }, "threshold_gb"],
      [{ ...on, enabled: false, threshold_gb: 0 }, "threshold_gb"],
      [{ ...on, enabled: false, monthly_cap_usd: 2.5 }, "monthly_cap_usd"],
      [{ ...on, enabled: "yes" }, "enabled"],
      [{ enabled: false, threshold_gb: 1, amount_usd: 3 }, "monthly_cap_usd"],
    ];
    for (const [payload, field] of bad) {
      const response = await putSettings(t.app, alice, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().success).toBe(false);
      expect(response.json().message).toContain(field);
    }
    expect((await readSettings(t.app, alice)).amount_usd).toBe(50);
  });

  it("save a card from the sandbox card page and keep the settings", async () => {
    const back = await saveSandboxCard(t.app, alice);
    expect(back).toMatch(new RegExp(`^${TEST_APP_URL}/\\?card_setup=`));
    expect((await readSettings(t.app, alice)).card).toEqual({ brand: "visa", last4: "4242" });
    const saved = await putSettings(t.app, alice, { ...on, enabled: false });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({
      enabled: false,
      threshold_gb: 1,
      amount_usd: 3,
      monthly_cap_usd: 7,
    });
    const open = await t.app.inject({
      method: "GET",
      url: "/dev/card-setup/00000000-0000-4000-8000-000000000000",
    });
    expect(open.statusCode).toBe(404);
  });

  it("top up once per fall below the threshold, within the monthly cap", async () => {
    let secret = "";
    const receiver = await startReceiver(() => secret);
    try {
      const hook = await t.app.inject({
        method: "POST",
        url: "/webhooks",
        headers: alice.headers,
        payload: { url: receiver.url, events: ["topup.succeeded", "topup.failed"] },
      });
      secret = hook.json().data.secret;
      // Alice holds her free 1 GB, exactly the threshold: turning on charges nothing yet.
      expect((await putSettings(t.app, alice, on)).statusCode).toBe(200);
      await adjustBalance(t.app, alice, -0.1);
      await eventually(
        "the first top-up paid",
        () => topupOrders(t.app, alice.id),
        (rows) => rows[0]?.payment_status === "paid",
      );
      expect(await balanceBytesOf(t.app, alice.id)).toBe(1.9 * GB);
      await armed(t.app, alice.id);

      // Below again: a second top-up ($6 of $7 this month).
      await adjustBalance(t.app, alice, -1);
      await eventually(
        "the second top-up paid",
        () => topupOrders(t.app, alice.id),
        (rows) => rows[1]?.payment_status === "paid",
      );
      await armed(t.app, alice.id);
      // A third would make $9: nothing is charged; the customer hears why.
      await adjustBalance(t.app, alice, -1.5);
      await eventually(
        "the cap's topup.failed",
        () => receiver.received.map((r) => r.json.type),
        (types) => types.length === 3,
      );
      await nothingLeftToSend(t.database, receiver.url);
      expect(await topupOrders(t.app, alice.id)).toHaveLength(2);
      expect(receiver.received.map((r) => r.json.type)).toEqual([
        "topup.succeeded",
        "topup.succeeded",
        "topup.failed",
      ]);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      expect(receiver.received[0]?.json.data).toMatchObject({ amount_usd: 3, gb: 1, balance_gb_after: 1.9 });
      expect(receiver.received[2]?.json.data).toMatchObject({
        reason: "monthly_cap_reached",
        order_id: null,
      });
      expect(await outboxSubjects(t.app, "topup-alice@example.com")).toContain(
        "Auto top-up reached its monthly cap",
      );
      const settings = await readSettings(t.app, alice);
      expect(settings).toMatchObject({ enabled: true, spent_this_month_usd: 6, failures: 0 });
    } finally {
      await receiver.close();
    }
  });

  it("show the top-ups in the history as auto top-up orders, and credit each once", async () => {
    const history = await t.app.inject({
      method: "GET",
      url: "/history?page=1&per_page=10",
      headers: alice.headers,
    });
    const orders = history.json().data.filter((row: { kind: string }) => row.kind === "order");
    expect(orders).toHaveLength(2);
    for (const row of orders)
      expect(row.order).toMatchObject({
        origin: "auto_topup",
        method: "card",
        payment_status: "paid",
        amount_usd: 3,
      });
    const [ledger] = await t.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND kind = 'purchase'",
      [alice.id],
    );
    expect(ledger?.n).toBe(2);
  });

  it("turn off when the card is removed", async () => {
    const removed = await t.app.inject({
      method: "DELETE",
      url: "/settings/auto-topup/card",
      headers: alice.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data).toMatchObject({ enabled: false, card: null });
    expect((await putSettings(t.app, alice, on)).statusCode).toBe(409);
  });
});
