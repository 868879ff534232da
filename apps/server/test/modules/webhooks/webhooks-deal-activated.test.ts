import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { ADMIN_TOKEN, createDeal, getDeal, orderFor } from "../deals/helpers.ts";
import { customer } from "../orders/helpers.ts";
import { eventually, nothingLeftToSend, startReceiver } from "./receiver.ts";

const FAST = {
  ADMIN_TOKEN,
  EGRESS_ALLOW: "127.0.0.0/8",
  WEBHOOK_RETRY_BASE_MS: "100",
  WEBHOOK_POLL_MS: "50",
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(FAST);
});
afterAll(async () => {
  await t?.close();
});

describe("deal.activated", () => {
  it("reaches each customer who joined the group buy once, when it reaches its target", async () => {
    const secrets = ["", ""];
    const receivers = await Promise.all([0, 1].map((i) => startReceiver(() => secrets[i] as string)));
    try {
      const deal = await createDeal(t.app, { deal_type: "group_buy", deal_price: 1, deal_target_gb: 100 });
      const joined = [
        await customer(t.app, "joined-a@example.com"),
        await customer(t.app, "joined-b@example.com"),
      ];
      const outsider = await customer(t.app, "outsider@example.com");
      for (const [i, who] of [...joined].entries()) {
        const created = await t.app.inject({
          method: "POST",
          url: "/webhooks",
          headers: who.headers,
          payload: { url: receivers[i]!.url, events: ["deal.activated", "order.paid"] },
        });
        secrets[i] = created.json().data.secret;
      }
      const outsiderHook = await startReceiver(() => "");
      await t.app.inject({
        method: "POST",
        url: "/webhooks",
        headers: outsider.headers,
        payload: { url: outsiderHook.url, events: ["deal.activated"] },
      });
      const orders = [];
      // Two deposits of 30 by the first customer, 40 by the second: the target is met by the last.
      for (const [who, amount] of [
        [joined[0], 30],
        [joined[0], 30],
        [joined[1], 40],
      ] as const)
        orders.push((await orderFor(t.app, who!, { deal_id: deal.id, amount })).json().data);
      for (const order of orders) await t.app.settlement.paySandbox(order.order_id);
      expect((await getDeal(t.app, deal.id)).status).toBe("activated");
      for (const receiver of receivers) {
        await eventually(
          "deal.activated",
          () => receiver.received.filter((r) => r.json.type === "deal.activated").length,
          (n) => n === 1,
        );
      }
      for (const receiver of receivers) await nothingLeftToSend(t.database, receiver.url);
      for (const receiver of receivers) {
        const activated = receiver.received.filter((r) => r.json.type === "deal.activated");
        expect(activated).toHaveLength(1);
        expect(activated[0]?.json.data).toMatchObject({ deal_id: deal.id });
        expect(activated[0]?.verified).toBe(true);
      }
      expect(outsiderHook.received).toHaveLength(0);
      await outsiderHook.close();
    } finally {
      for (const receiver of receivers) await receiver.close();
    }
  });
});
