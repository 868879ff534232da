import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { customer } from "../orders/helpers.ts";
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

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await createTestApp(FAST);
  // A second instance over the same database (PostgreSQL with DATABASE_URL) hears every change too.
  second = await createTestApp(FAST, { database: first.database });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

describe("auto top-up with two instances", () => {
  // Each wait below gives up after 20 s naming its step and what it last read: the test's own
  // limit is above that, so a step that hangs says which one it is. Many crossings: a second
  // top-up needs a judge whose reading spans another's claim and payment (the next test makes
  // that happen on purpose; here it came about once in 40 crossings on a busy machine).
  it("makes exactly one top-up per fall below the threshold, however many instances judge it", {
    timeout: 90_000,
  }, async () => {
    const CROSSINGS = 20;
    const bob = await customer(first.app, "two-instances@example.com");
    await saveSandboxCard(second.app, bob);
    const on = { enabled: true, threshold_gb: 1, amount_usd: 3, monthly_cap_usd: 100 };
    expect((await putSettings(first.app, bob, on)).statusCode).toBe(200);
    for (let crossing = 1; crossing <= CROSSINGS; crossing++) {
      await armed(first.app, bob.id);
      await adjustBalance(crossing % 2 ? first.app : second.app, bob, -1);
      // Besides both listeners, each instance judges the balance again and again at once.
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 ? first : second).app.autoTopup.topups.balanceChanged(bob.id),
        ),
      );
      const rows = await eventually(
        `top-up ${crossing} paid`,
        () => topupOrders(first.app, bob.id),
        (rows) => rows.length >= crossing && rows.every((row) => row.payment_status === "paid"),
      );
      expect(rows, `top-ups after fall ${crossing}`).toHaveLength(crossing);
    }
    await armed(first.app, bob.id);
    await Promise.all([first, second].map((t) => t.app.autoTopup.topups.balanceChanged(bob.id)));
    expect(await topupOrders(first.app, bob.id)).toHaveLength(CROSSINGS);
    // 1 GB free, each time 1 GB taken and 1 GB bought.
    expect(await balanceBytesOf(first.app, bob.id)).toBe(1 * GB);
    const [ledger] = await first.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND kind = 'purchase'",
      [bob.id],
    );
    expect(ledger?.n).toBe(CROSSINGS);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "does not top up for a fall whose top-up another instance made and was paid while it waited",
    async () => {
      const dana = await customer(first.app, "waited@example.com");
      await saveSandboxCard(first.app, dana);
      const settings = { enabled: false, threshold_gb: 1, amount_usd: 3, monthly_cap_usd: 100 };
      expect((await putSettings(first.app, dana, settings)).statusCode).toBe(200);
      // Below the threshold, armed, and switched on where no balance change is announced, so no
      // instance judges it on its own: the fall is this test's to hand out.
      await adjustBalance(first.app, dana, -1);
      await first.database.query("UPDATE auto_topups SET enabled = true WHERE user_id = $1", [dana.id]);
      // Another instance's whole crossing in one transaction held open: claimed, paid (1 GB
      // credited) and armed again.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding = () => {};
      const isHolding = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const crossing = first.database.db.transaction(async (tx) => {
        await tx.execute(sql`UPDATE auto_topups SET crossed_at = now() WHERE user_id = ${dana.id}`);
        await tx.execute(sql`UPDATE users SET balance_bytes = balance_bytes + ${GB} WHERE id = ${dana.id}`);
        await tx.execute(sql`UPDATE auto_topups SET crossed_at = NULL WHERE user_id = ${dana.id}`);
        holding();
        await held;
      });
      await isHolding;
      // This instance judges the fall meanwhile, and waits for the row.
      const judged = second.app.autoTopup.topups.balanceChanged(dana.id);
      await eventually(
        "the judge to wait for the row",
        () =>
          first.database.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          ),
        (rows) => (rows[0]?.n ?? 0) > 0,
      );
      release();
      await crossing;
      await judged;
      expect(await topupOrders(first.app, dana.id)).toHaveLength(0);
      expect(await balanceBytesOf(first.app, dana.id)).toBe(1 * GB);
    },
  );

  it("turns auto top-up off after three failed charges in a row, telling the customer each time", async () => {
    let secret = "";
    const receiver = await startReceiver(() => secret);
    try {
      const carol = await customer(first.app, "declined@example.com");
      const hook = await first.app.inject({
        method: "POST",
        url: "/webhooks",
        headers: carol.headers,
        payload: { url: receiver.url, events: ["topup.failed", "topup.succeeded"] },
      });
      secret = hook.json().data.secret;
      await saveSandboxCard(first.app, carol, "declines");
      expect((await readSettings(first.app, carol)).card).toEqual({ brand: "visa", last4: "0341" });
      expect(
        (
          await putSettings(first.app, carol, {
            enabled: true,
            threshold_gb: 1,
            amount_usd: 3,
            monthly_cap_usd: 100,
          })
        ).statusCode,
      ).toBe(200);
      for (let failure = 1; failure <= 3; failure++) {
        await adjustBalance(first.app, carol, -0.5);
        await eventually(
          `failure ${failure}`,
          () => topupOrders(first.app, carol.id),
          (rows) => rows.length === failure && rows.every((row) => row.payment_status === "failed"),
        );
        // Back above the threshold (bought by hand), ready to fall again.
        await adjustBalance(second.app, carol, 0.5);
        await armed(first.app, carol.id);
      }
      await eventually(
        "auto top-up off",
        () => readSettings(first.app, carol),
        (s) => !s.enabled,
      );
      expect(await readSettings(first.app, carol)).toMatchObject({ enabled: false, failures: 3 });
      await adjustBalance(first.app, carol, -0.7);
      await nothingLeftToSend(first.database, receiver.url);
      expect(await topupOrders(first.app, carol.id)).toHaveLength(3);
      expect(receiver.received.map((r) => r.json.type)).toEqual([
        "topup.failed",
        "topup.failed",
        "topup.failed",
      ]);
      expect(receiver.received.map((r) => r.json.data.auto_topup_enabled)).toEqual([true, true, false]);
      expect(receiver.received[0]?.json.data).toMatchObject({
        reason: "card_declined",
        message: "Your card was declined.",
      });
      const subjects = await outboxSubjects(first.app, "declined@example.com");
      expect(subjects.filter((s) => s === "Your auto top-up of $3 failed")).toHaveLength(3);
      const [last] = await first.database.query<{ text: string }>(
        `SELECT text FROM outbox_messages WHERE "to" = $1 AND subject LIKE 'Your auto top-up%' ORDER BY id DESC LIMIT 1`,
        ["declined@example.com"],
      );
      expect(last?.text).toContain("Auto top-up is now off after 3 failed charges in a row.");
      // Turning it on again starts the count afresh.
      const again = await putSettings(first.app, carol, {
        enabled: true,
        threshold_gb: 1,
        amount_usd: 3,
        monthly_cap_usd: 100,
      });
      expect(again.json().data).toMatchObject({ enabled: true, failures: 0 });
    } finally {
      await receiver.close();
    }
  });
});
