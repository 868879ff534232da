import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, latestLinkToken, requestLink, verify } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const count = async (sql: string, params: unknown[] = []) =>
  Number((await t.database.query<{ n: string }>(`SELECT count(*) AS n FROM (${sql}) q`, params))[0]!.n);
const usersNamed = (email: string) => count("SELECT 1 FROM users WHERE email = $1", [email]);
const ordersOf = (email: string) =>
  count("SELECT 1 FROM orders o JOIN users u ON u.id = o.user_id WHERE u.email = $1", [email]);
const magicCheck = (payload: Record<string, unknown>) =>
  t.app.inject({ method: "POST", url: "/magic/check", payload });

describe("nothing is written for an address until its link is followed", () => {
  it("makes neither account nor order from /magic/check or /auth/login for a stranger's e-mail", async () => {
    const email = "stranger@example.com";
    expect((await magicCheck({ email, purchaseAmount: 50 })).statusCode).toBe(200);
    expect((await requestLink(t.app, email, { purchaseAmount: 50 })).statusCode).toBe(200);
    expect(await usersNamed(email)).toBe(0);
    expect(await count("SELECT 1 FROM orders")).toBe(0);
  });

  it("makes the account and the asked-for order when the link is followed, once", async () => {
    const email = "proved@example.com";
    await magicCheck({ email, purchaseAmount: 30 });
    await requestLink(t.app, email, { purchaseAmount: 30 });
    const token = await latestLinkToken(t.app, email);
    const followed = await verify(t.app, token);
    expect(followed.statusCode).toBe(200);
    const { id, order_id: orderId, token: appToken } = followed.json().data;
    expect(orderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await usersNamed(email)).toBe(1);
    expect(await ordersOf(email)).toBe(1);

    const order = await t.app.inject({
      method: "GET",
      url: `/transactions/${orderId}`,
      headers: bearer(appToken),
    });
    expect(order.json().data).toMatchObject({
      order_id: orderId,
      user_id: id,
      amount_usd: 30,
      method: "crypto",
      network_type: null,
      payment_status: "waiting",
      pay_address: null,
    });

    const replayed = await verify(t.app, token);
    expect(replayed.statusCode).toBe(401);
    expect(await usersNamed(email)).toBe(1);
    expect(await ordersOf(email)).toBe(1);
  });

  it("answers order_id null when the login request asked for no order", async () => {
    await requestLink(t.app, "no-order@example.com");
    const followed = await verify(t.app, await latestLinkToken(t.app, "no-order@example.com"));
    expect(followed.json().data.order_id).toBeNull();
    expect(await ordersOf("no-order@example.com")).toBe(0);
  });

  it("refuses a deal at /auth/login too, storing no link", async () => {
    const response = await requestLink(t.app, "deal-link@example.com", { dealId: 3, purchaseAmount: 30 });
    expect(response.statusCode).toBe(404);
    expect(await count("SELECT 1 FROM login_tokens WHERE email = 'deal-link@example.com'")).toBe(0);
  });

  it("refuses an amount above the order limit at /auth/login with a 400 naming the field", async () => {
    const response = await requestLink(t.app, "too-much@example.com", { purchaseAmount: 100_001 });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("purchaseAmount must be a whole number of USD from 1 to 100000");
  });
});
