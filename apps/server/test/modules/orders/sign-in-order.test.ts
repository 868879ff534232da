import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxPayAddress } from "../../../src/modules/payments/sandbox-provider.ts";
import { bearer, latestLinkToken, verify } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { type Customer, createOrder, customer, getOrder, sandboxPay } from "./helpers.ts";

let t: TestApp;
let bob: Customer;

beforeAll(async () => {
  t = await createTestApp();
  bob = await customer(t.app, "bob@example.com");
});
afterAll(() => t?.close());

async function magicCheck(payload: Record<string, unknown>) {
  return t.app.inject({ method: "POST", url: "/magic/check", payload });
}

/** The login request with a purchase, then the e-mailed link followed: the order is made then. */
async function signInWithPurchase(email: string, usd: number) {
  const checked = await magicCheck({ email, purchaseAmount: usd });
  expect(checked.statusCode, checked.body).toBe(200);
  const sent = await t.app.inject({
    method: "POST",
    url: "/auth/login",
    payload: { email, purchaseAmount: usd },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const verified = await verify(t.app, await latestLinkToken(t.app, email));
  const session = verified.json().data;
  const orderId: string = session.order_id;
  const who: Customer = { id: session.id, token: session.token, headers: bearer(session.token) };
  return { orderId, who };
}

let pendingForBadBodies: Awaited<ReturnType<typeof signInWithPurchase>> | undefined;

async function choosePayment(who: Customer, orderId: string, payload: unknown) {
  return t.app.inject({
    method: "POST",
    url: `/transactions/${orderId}/payment`,
    headers: who.headers,
    payload: payload as Record<string, unknown>,
  });
}

async function countOrders(email: string): Promise<number> {
  const [row] = await t.database.query<{ n: string | number }>(
    "SELECT count(*) AS n FROM orders o JOIN users u ON u.id = o.user_id WHERE u.email = $1",
    [email],
  );
  return Number(row?.n ?? 0);
}

describe("signing in with purchaseAmount", () => {
  it("creates one pending order, unpriced, when the link is followed; only its owner can read it", async () => {
    const { orderId, who } = await signInWithPurchase("new-buyer@example.com", 30);
    expect(orderId).toMatch(/^[0-9a-f-]{36}$/);

    const order = await getOrder(t.app, who, orderId);
    expect(order).toMatchObject({
      order_id: orderId,
      user_id: who.id,
      method: "crypto",
      network_type: null,
      amount_usd: 30,
      gb: 10,
      payment_status: "waiting",
      pay_address: null,
      qr_code: null,
      price_amount: null,
      stripe_redirect_url: null,
    });
    // Stored as awaiting its method, with none: the API shows it as a waiting order.
    const [stored] = await t.database.query<{ payment_status: string; method: string | null }>(
      "SELECT payment_status, method FROM orders WHERE id = $1",
      [orderId],
    );
    expect(stored).toEqual({ payment_status: "awaiting_method", method: null });
    const asBob = await t.app.inject({
      method: "GET",
      url: `/transactions/${orderId}`,
      headers: bob.headers,
    });
    expect(asBob.statusCode).toBe(404);
    expect(asBob.json()).toEqual({ success: false, message: "Order not found" });
  });

  it("reuses the order when two links of a double submit are both followed", async () => {
    const email = "double@example.com";
    const first = await signInWithPurchase(email, 12);
    const second = await signInWithPurchase("Double@Example.com ", 12);
    expect(second.orderId).toBe(first.orderId);
    expect(await countOrders(email)).toBe(1);

    // Another amount is another purchase.
    const other = await signInWithPurchase(email, 13);
    expect(other.orderId).not.toBe(first.orderId);
    expect(await countOrders(email)).toBe(2);
  });

  it("does not reuse an order once its payment method is chosen", async () => {
    const { orderId, who } = await signInWithPurchase("chosen@example.com", 9);
    expect((await choosePayment(who, orderId, { method: "crypto", network_type: "base" })).statusCode).toBe(
      200,
    );
    const again = await signInWithPurchase("chosen@example.com", 9);
    expect(again.orderId).not.toBe(orderId);
  });

  it("signs in without an order when the purchase is under 1 GB at the list price ($3)", async () => {
    const { orderId } = await signInWithPurchase("two-dollars@example.com", 2);
    expect(orderId ?? null).toBeNull();
    expect(await countOrders("two-dollars@example.com")).toBe(0);
  });

  it("answers without an order when no purchase is asked for", async () => {
    for (const purchaseAmount of [undefined, null]) {
      const response = await magicCheck({ email: "plain@example.com", purchaseAmount });
      expect(response.json()).toEqual({ success: true, data: { orderId: null } });
    }
    expect(await countOrders("plain@example.com")).toBe(0);
  });

  it.each([
    [0, "purchaseAmount must be greater than 0"],
    [-5, "purchaseAmount must be greater than 0"],
    [2.5, "purchaseAmount must be a whole number of USD"],
    ["30", "purchaseAmount"],
    [100_001, "purchaseAmount must be a whole number of USD from 1 to 100000"],
    [1_000_001, "purchaseAmount must be a whole number of USD from 1 to 100000"],
  ])("refuses purchaseAmount %j with a 400 and creates nothing", async (purchaseAmount, message) => {
    const response = await magicCheck({ email: "bad-amount@example.com", purchaseAmount });
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
    expect(response.json().message).toContain(message);
    expect(await countOrders("bad-amount@example.com")).toBe(0);
  });

  it("refuses a deal with 404 and creates neither account nor order", async () => {
    const response = await magicCheck({ email: "deal@example.com", dealId: 7, purchaseAmount: 30 });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      success: false,
      message: "This deal is no longer available. Please check back again soon.",
    });
    const users = await t.database.query("SELECT id FROM users WHERE email = $1", ["deal@example.com"]);
    expect(users).toHaveLength(0);
  });
});

describe("POST /transactions/{orderId}/payment", () => {
  it("prices the order for USDC like POST /transactions, once; paying it credits the account", async () => {
    const { orderId, who } = await signInWithPurchase("usdc@example.com", 15);
    const chosen = await choosePayment(who, orderId, { method: "crypto", network_type: "solana" });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const order = chosen.json().data;
    expect(order).toMatchObject({
      order_id: orderId,
      method: "crypto",
      network_type: "solana",
      payment_status: "waiting",
      pay_address: sandboxPayAddress(orderId, "solana"),
      price_amount: 15,
      payment_token: "USDC (Solana)",
      amount_usd: 15,
      gb: 5,
    });
    expect(order.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(await getOrder(t.app, who, orderId)).toEqual(order);

    for (const payload of [{ method: "crypto", network_type: "base" }, { method: "card" }]) {
      const twice = await choosePayment(who, orderId, payload);
      expect(twice.statusCode).toBe(409);
      expect(twice.json()).toEqual({ success: false, message: "This order already has a payment method." });
    }
    expect((await getOrder(t.app, who, orderId)).pay_address).toBe(order.pay_address);

    const paid = await sandboxPay(t.app, orderId);
    expect(paid.json().data).toMatchObject({ payment_status: "paid", balance_gb_after: 6 });
    const closed = await choosePayment(who, orderId, { method: "card" });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toBe("This order can no longer be paid.");
  });

  it("turns the order into a card order that POST /stripe/sessions then opens", async () => {
    const { orderId, who } = await signInWithPurchase("card@example.com", 6);
    const chosen = await choosePayment(who, orderId, { method: "card" });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().data).toMatchObject({
      method: "card",
      network_type: null,
      pay_address: null,
      payment_token: "Card",
    });
    const session = await t.app.inject({
      method: "POST",
      url: "/stripe/sessions",
      headers: who.headers,
      payload: { order_id: orderId },
    });
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().data.redirect_url).toBe(`${t.config.APP_URL}/dev/card-checkout/${orderId}`);
    expect((await choosePayment(who, orderId, { method: "card" })).statusCode).toBe(409);
  });

  it("shows someone else's order to nobody: 404, and the order stays unpriced", async () => {
    const { orderId, who } = await signInWithPurchase("owner@example.com", 4);
    const asBob = await choosePayment(bob, orderId, { method: "crypto", network_type: "polygon" });
    expect(asBob.statusCode).toBe(404);
    expect(asBob.json()).toEqual({ success: false, message: "Order not found" });
    expect((await getOrder(t.app, who, orderId)).network_type).toBeNull();
    const unknown = await choosePayment(bob, "not-an-order", { method: "card" });
    expect(unknown.statusCode).toBe(404);
  });

  it("refuses orders that were priced at creation", async () => {
    const order = await createOrder(t.app, bob, { amount: 3, method: "card" });
    const response = await choosePayment(bob, order.order_id, { method: "crypto", network_type: "solana" });
    expect(response.statusCode).toBe(409);
  });

  it.each([
    [{}, "method must be crypto or card"],
    [{ method: "crypto" }, "network_type is required for crypto"],
    [{ method: "crypto", network_type: "bitcoin" }, "network_type must be one of"],
    [{ method: "card", network_type: "solana" }, "network_type is only for crypto"],
    [{ method: "card", extra: true }, "Unrecognized key"],
  ])("refuses %j with a 400", async (payload, message) => {
    // One order for every case: each sign-in spends one of the address's links.
    pendingForBadBodies ??= await signInWithPurchase("bad-bodies@example.com", 2);
    const { orderId, who } = pendingForBadBodies;
    const response = await choosePayment(who, orderId, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it("needs a signed-in user", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/transactions/00000000-0000-4000-8000-000000000000/payment",
      payload: { method: "card" },
    });
    expect(response.statusCode).toBe(401);
  });
});
