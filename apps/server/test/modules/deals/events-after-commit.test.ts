import type { Deal } from "@bytetoll/contracts";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRealtime } from "../../helpers/realtime-client.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { customer, sandboxPay } from "../orders/helpers.ts";
import { ADMIN_TOKEN, createDeal, getDeal, orderFor } from "./helpers.ts";

let t: TestApp;
let socket: Socket | undefined;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_TOKEN });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  socket?.disconnect();
  await t?.close();
});

describe("deal events leave only after their transaction commits", () => {
  it("never sends the state of a payment whose transaction rolled back; sends each committed one once", async () => {
    const deal = await createDeal(t.app, { deal_type: "group_buy", deal_price: 1, deal_target_gb: 100 });
    const buyer = await customer(t.app, "events@example.com");
    socket = await connectRealtime(t.app, buyer.token);
    expect(await socket.timeout(5_000).emitWithAck("subscribe", { channel: "deals" })).toEqual({ ok: true });
    const heard: Deal[] = [];
    socket.on("deal.updated", (payload: { deal: Deal }) => {
      if (payload.deal.id === deal.id) heard.push(payload.deal);
    });
    const deposit = async (amount: number) => {
      const response = await orderFor(t.app, buyer, { deal_id: deal.id, amount });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.order_id as string;
    };
    const [forty, ten] = [await deposit(40), await deposit(10)];

    // The $40 deposit is held by the deal inside the settlement's transaction, and then something
    // later in that transaction (here the operator's audit row) fails: all of it rolls back.
    const failed = t.app.settlement.settle(
      forty,
      { status: "paid", payinHash: "DUMMY_TX_ID" },
      {
        changed: async () => {
          throw new Error("the audit row could not be written");
        },
      },
    );
    await expect(failed).rejects.toThrow("the audit row could not be written");
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(0);

    // Two committed payments after it; events on one socket arrive in order, so once the second
    // is heard, anything the rolled-back one sent would have been heard before it.
    expect((await sandboxPay(t.app, ten)).statusCode).toBe(200);
    expect((await sandboxPay(t.app, forty)).statusCode).toBe(200);
    await expect.poll(() => heard.at(-1)?.deal_reserved_gb, { timeout: 20_000 }).toBe(50);
    expect(heard.map((seen) => seen.deal_reserved_gb)).toEqual([10, 50]);
  });
});
