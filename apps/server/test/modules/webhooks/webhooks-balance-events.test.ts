import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { customer } from "../orders/helpers.ts";
import { eventually, nothingLeftToSend, startReceiver } from "./receiver.ts";

const FAST = { EGRESS_ALLOW: "127.0.0.0/8", WEBHOOK_RETRY_BASE_MS: "100", WEBHOOK_POLL_MS: "50" };
const GB = 1e9;

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await createTestApp(FAST);
  // A second instance over the same database hears every balance change too.
  second = await createTestApp(FAST, { database: first.database });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

/** Any writer's balance change (gateway flush, payment, operator) reaches the change feed alike. */
const setBalance = (userId: string, bytes: number) =>
  first.database.query("UPDATE users SET balance_bytes = $2 WHERE id = $1", [userId, bytes]);

describe("balance webhooks", () => {
  it("raise balance.low once per downward crossing of the alert threshold, and balance.exhausted at zero", async () => {
    let secret = "";
    const receiver = await startReceiver(() => secret);
    try {
      const alice = await customer(first.app, "balance-hooks@example.com");
      const created = await first.app.inject({
        method: "POST",
        url: "/webhooks",
        headers: alice.headers,
        payload: { url: receiver.url, events: ["balance.low", "balance.exhausted"] },
      });
      secret = created.json().data.secret;
      const types = () => receiver.received.map((r) => r.json.type);

      await setBalance(alice.id, 3 * GB);
      await eventually(
        "the balance armed",
        async () =>
          (
            await first.database.query<{ n: unknown }>(
              "SELECT low_balance_notified_at AS n FROM users WHERE id = $1",
              [alice.id],
            )
          )[0]?.n,
        (n) => n === null,
      );
      await setBalance(alice.id, GB / 2);
      await eventually("balance.low", types, (list) => list.length === 1);
      await setBalance(alice.id, GB / 4);
      await setBalance(alice.id, 0);
      await eventually("balance.exhausted", types, (list) => list.length === 2);
      expect(types()).toEqual(["balance.low", "balance.exhausted"]);
      expect(receiver.received[1]?.json.data).toMatchObject({ balance_bytes: 0 });
      // Still at zero: nothing new. Back above the threshold and down again: one more of each.
      // The change to zero is handled before the re-arming that follows it, so an event it raised
      // would be among those counted once nothing is left to send.
      await setBalance(alice.id, 0);
      await setBalance(alice.id, 2 * GB);
      await eventually(
        "re-armed",
        async () =>
          (
            await first.database.query<{ n: unknown }>(
              "SELECT balance_exhausted_at AS n FROM users WHERE id = $1",
              [alice.id],
            )
          )[0]?.n,
        (n) => n === null,
      );
      await setBalance(alice.id, -5);
      await eventually("the second crossing", types, (list) => list.length >= 4);
      await nothingLeftToSend(first.database, receiver.url);
      expect(types()).toHaveLength(4);
      expect(types().slice(2).sort()).toEqual(["balance.exhausted", "balance.low"]);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(4);
    } finally {
      await receiver.close();
    }
  });
});
