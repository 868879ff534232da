import { DEAL_UNAVAILABLE, decodeDealId } from "@bytetoll/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, latestLinkToken, requestLink, verify } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { ADMIN_TOKEN, admin, createDeal, getDeal } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_TOKEN });
});
afterAll(() => t?.close());

async function signInWith(email: string, extra: Record<string, unknown>) {
  const sent = await requestLink(t.app, email, extra);
  expect(sent.statusCode, sent.body).toBe(200);
  const verified = await verify(t.app, await latestLinkToken(t.app, email));
  expect(verified.statusCode, verified.body).toBe(200);
  return verified.json().data as { token: string; order_id: string | null };
}

describe("sign-in with a deal (di and usd)", () => {
  it("makes the flash-sale order when the link is followed, taking its stock", async () => {
    const deal = await createDeal(t.app, { deal_type: "flash_sale", deal_price: 0.5, deal_target_gb: 5000 });
    const session = await signInWith("deal-flash@example.com", {
      dealId: decodeDealId(deal.id),
      purchaseAmount: 1000,
    });
    expect(session.order_id).toMatch(/^[0-9a-f-]{36}$/);
    const order = await t.app.inject({
      method: "GET",
      url: `/transactions/${session.order_id}`,
      headers: bearer(session.token),
    });
    expect(order.json().data).toMatchObject({
      deal_id: deal.id,
      quantity: 2,
      amount_usd: 1000,
      gb: 2000,
      payment_status: "waiting",
      network_type: null,
    });
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(2000);
  });

  it("makes a group-buy deposit of usd (or the default 100)", async () => {
    const deal = await createDeal(t.app, { deal_type: "group_buy", deal_price: 1, deal_target_gb: 5000 });
    const session = await signInWith("deal-group@example.com", { dealId: decodeDealId(deal.id) });
    const order = await t.app.inject({
      method: "GET",
      url: `/transactions/${session.order_id}`,
      headers: bearer(session.token),
    });
    expect(order.json().data).toMatchObject({ deal_id: deal.id, amount_usd: 100, gb: 100, quantity: null });
  });

  it("refuses a deal that is not live, and a usd a flash sale cannot total, before sending any link", async () => {
    const deal = await createDeal(t.app, { deal_type: "flash_sale", deal_price: 0.5, deal_target_gb: 5000 });
    const odd = await requestLink(t.app, "deal-odd@example.com", {
      dealId: decodeDealId(deal.id),
      purchaseAmount: 777,
    });
    expect(odd.statusCode).toBe(400);
    await t.app.inject({ method: "POST", url: `/admin/deals/${deal.id}/cancel`, headers: admin });
    for (const url of ["/magic/check", "/auth/login"]) {
      const refused = await t.app.inject({
        method: "POST",
        url,
        payload: { email: "deal-late@example.com", dealId: decodeDealId(deal.id), purchaseAmount: 500 },
      });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe(DEAL_UNAVAILABLE);
    }
    const outbox = await t.app.inject({
      method: "GET",
      url: "/dev/outbox/messages?to=deal-late%40example.com",
    });
    expect(outbox.json().data).toEqual([]);
  });
});
