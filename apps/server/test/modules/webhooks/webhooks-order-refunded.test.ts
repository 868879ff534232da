import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../helpers/test-app.ts";
import { type Customer, createOrder, createTestAppWithPayments, customer } from "../orders/helpers.ts";
import { type StandIn, startStandIn } from "../payments/stand-in-server.ts";
import { eventually, nothingLeftToSend, startReceiver } from "./receiver.ts";

const STRIPE_WEBHOOK_SECRET = "whsec_test_secret_for_bytetoll";
const signer = new Stripe("sk_test_signer_only");

let t: TestApp;
let stripeApi: StandIn;
let alice: Customer;

beforeAll(async () => {
  // Stripe's API as far as creating a Checkout Session and finding one by its payment intent go.
  stripeApi = await startStandIn((request) => {
    if (request.method === "POST" && request.url === "/v1/checkout/sessions")
      return {
        status: 200,
        body: {
          id: "cs_test_hooks",
          object: "checkout.session",
          url: "https://checkout.stripe.com/c/pay/cs_test_hooks",
          payment_status: "unpaid",
        },
      };
    if (request.method === "GET" && request.url.startsWith("/v1/checkout/sessions?"))
      return {
        status: 200,
        body: {
          object: "list",
          data: [{ id: "cs_test_hooks", object: "checkout.session", payment_intent: "pi_hooks" }],
          has_more: false,
          url: "/v1/checkout/sessions",
        },
      };
    return { status: 404, body: { error: { message: "no such route" } } };
  });
  t = await createTestAppWithPayments(
    {
      STRIPE_SECRET_KEY: "sk_test_bytetoll",
      STRIPE_WEBHOOK_SECRET,
      EGRESS_ALLOW: "127.0.0.0/8",
      WEBHOOK_RETRY_BASE_MS: "100",
      WEBHOOK_POLL_MS: "50",
    },
    { stripeApi: { host: "127.0.0.1", port: stripeApi.port, protocol: "http" } },
  );
  alice = await customer(t.app, "refund-hooks@example.com");
});
afterAll(async () => {
  await t?.close();
  await stripeApi?.close();
});

function stripeEvent(id: string, type: string, object: Record<string, unknown>) {
  const payload = JSON.stringify({
    id,
    object: "event",
    type,
    api_version: "2025-10-29.clover",
    created: 1_700_000_000,
    data: { object },
  });
  return t.app.inject({
    method: "POST",
    url: "/webhooks/stripe",
    headers: {
      "content-type": "application/json",
      "stripe-signature": signer.webhooks.generateTestHeaderString({
        payload,
        secret: STRIPE_WEBHOOK_SECRET,
      }),
    },
    payload,
  });
}

describe("order webhooks from card payments", () => {
  it("sends order.paid when Stripe says paid and order.refunded once when it is refunded in full", async () => {
    let secret = "";
    const receiver = await startReceiver(() => secret);
    try {
      const created = await t.app.inject({
        method: "POST",
        url: "/webhooks",
        headers: alice.headers,
        payload: { url: receiver.url, events: ["order.paid", "order.refunded"] },
      });
      secret = created.json().data.secret;
      const order = await createOrder(t.app, alice, { amount: 12, method: "card" });
      expect(
        (
          await t.app.inject({
            method: "POST",
            url: "/stripe/sessions",
            headers: alice.headers,
            payload: { order_id: order.order_id },
          })
        ).statusCode,
      ).toBe(200);
      const session = {
        id: "cs_test_hooks",
        object: "checkout.session",
        payment_status: "paid",
        status: "complete",
        amount_total: 1200,
        currency: "usd",
        payment_intent: "pi_hooks",
        client_reference_id: order.order_id,
        metadata: { order_id: order.order_id },
      };
      expect((await stripeEvent("evt_hooks_paid", "checkout.session.completed", session)).statusCode).toBe(
        200,
      );
      await eventually(
        "order.paid",
        () => receiver.received.length,
        (n) => n === 1,
      );
      const charge = {
        id: "ch_hooks",
        object: "charge",
        amount: 1200,
        amount_refunded: 1200,
        currency: "usd",
        refunded: true,
        payment_intent: "pi_hooks",
      };
      expect((await stripeEvent("evt_hooks_refund", "charge.refunded", charge)).statusCode).toBe(200);
      expect((await stripeEvent("evt_hooks_refund_again", "charge.refunded", charge)).statusCode).toBe(200);
      await eventually(
        "order.refunded",
        () => receiver.received.length,
        (n) => n === 2,
      );
      await nothingLeftToSend(t.database, receiver.url);
      expect(receiver.received.map((r) => r.json.type)).toEqual(["order.paid", "order.refunded"]);
      expect(receiver.received[1]?.json.data).toMatchObject({ order_id: order.order_id, amount_usd: 12 });
      expect(receiver.received.every((r) => r.verified)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
