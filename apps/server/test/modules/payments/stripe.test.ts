import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../helpers/test-app.ts";
import {
  balanceBytes,
  type Customer,
  createOrder,
  createTestAppWithPayments,
  customer,
  GB,
  getOrder,
} from "../orders/helpers.ts";
import { type StandIn, startStandIn } from "./stand-in-server.ts";

const WEBHOOK_SECRET = "whsec_test_secret_for_bytetoll";
const signer = new Stripe("sk_test_signer_only");

let t: TestApp;
let stripeApi: StandIn;
let alice: Customer;
let bob: Customer;
let sessionCount = 0;

beforeAll(async () => {
  // Stripe's API as far as Checkout Sessions go.
  stripeApi = await startStandIn((request) => {
    if (request.method === "POST" && request.url === "/v1/checkout/sessions") {
      sessionCount += 1;
      const id = `cs_test_${sessionCount}`;
      return {
        status: 200,
        body: {
          id,
          object: "checkout.session",
          url: `https://checkout.stripe.com/c/pay/${id}`,
          payment_status: "unpaid",
        },
      };
    }
    return { status: 404, body: { error: { message: "no such route" } } };
  });
  t = await createTestAppWithPayments(
    { STRIPE_SECRET_KEY: "sk_test_bytetoll", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    { stripeApi: { host: "127.0.0.1", port: stripeApi.port, protocol: "http" } },
  );
  alice = await customer(t.app, "alice@example.com");
  bob = await customer(t.app, "bob@example.com");
});
afterAll(async () => {
  await t?.close();
  await stripeApi?.close();
});

async function cardOrderWithSession(who: Customer, amount: number) {
  const order = await createOrder(t.app, who, { amount, method: "card" });
  const response = await t.app.inject({
    method: "POST",
    url: "/stripe/sessions",
    headers: who.headers,
    payload: { order_id: order.order_id },
  });
  expect(response.statusCode, response.body).toBe(200);
  const redirectUrl: string = response.json().data.redirect_url;
  return { order, redirectUrl, sessionId: redirectUrl.split("/").at(-1) ?? "" };
}

function sessionEvent(
  id: string,
  type: string,
  session: { id: string; orderId: string; paymentStatus?: string },
): string {
  return JSON.stringify({
    id,
    object: "event",
    type,
    api_version: "2025-10-29.clover",
    created: 1_700_000_000,
    data: {
      object: {
        id: session.id,
        object: "checkout.session",
        payment_status: session.paymentStatus ?? "paid",
        status: "complete",
        client_reference_id: session.orderId,
        metadata: { order_id: session.orderId },
      },
    },
  });
}

function deliver(payload: string, signature?: string | null) {
  const header =
    signature === undefined
      ? signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })
      : signature;
  return t.app.inject({
    method: "POST",
    url: "/webhooks/stripe",
    headers: {
      "content-type": "application/json",
      ...(header === null ? {} : { "stripe-signature": header }),
    },
    payload,
  });
}

describe("POST /stripe/sessions with Stripe configured", () => {
  it("opens a Checkout Session for the order's amount, tagged with the order id", async () => {
    const { order, redirectUrl, sessionId } = await cardOrderWithSession(alice, 12.5);
    expect(redirectUrl).toBe(`https://checkout.stripe.com/c/pay/${sessionId}`);
    const sent = new URLSearchParams(stripeApi.requests.at(-1)?.body);
    expect(sent.get("mode")).toBe("payment");
    expect(sent.get("metadata[order_id]")).toBe(order.order_id);
    expect(sent.get("line_items[0][price_data][unit_amount]")).toBe("1250");
    expect(sent.get("line_items[0][price_data][currency]")).toBe("usd");
    expect(sent.get("success_url")).toBe(`http://localhost:3000/checkout?order_id=${order.order_id}`);
    expect(stripeApi.requests.at(-1)?.headers.authorization).toBe("Bearer sk_test_bytetoll");

    // Asking again reuses the session rather than opening a second one.
    const before = stripeApi.requests.length;
    const again = await t.app.inject({
      method: "POST",
      url: "/stripe/sessions",
      headers: alice.headers,
      payload: { order_id: order.order_id },
    });
    expect(again.json().data.redirect_url).toBe(redirectUrl);
    expect(stripeApi.requests.length).toBe(before);
  });
});

describe("POST /webhooks/stripe", () => {
  it("credits a completed paid session once, however often the event is delivered", async () => {
    const start = await balanceBytes(t.app, alice);
    const { order, sessionId } = await cardOrderWithSession(alice, 15);
    const payload = sessionEvent("evt_paid_1", "checkout.session.completed", {
      id: sessionId,
      orderId: order.order_id,
    });
    const deliveries = await Promise.all([deliver(payload), deliver(payload), deliver(payload)]);
    expect(deliveries.map((d) => d.statusCode)).toEqual([200, 200, 200]);
    expect((await getOrder(t.app, alice, order.order_id)).payment_status).toBe("paid");
    expect(await balanceBytes(t.app, alice)).toBe(start + 5 * GB);
    const events = await t.database.query("SELECT id FROM stripe_events WHERE id = 'evt_paid_1'");
    expect(events).toHaveLength(1);

    // A different event for the same paid order changes nothing either.
    await deliver(
      sessionEvent("evt_paid_2", "checkout.session.async_payment_succeeded", {
        id: sessionId,
        orderId: order.order_id,
      }),
    );
    expect(await balanceBytes(t.app, alice)).toBe(start + 5 * GB);
  });

  it("waits for delayed methods: completed-but-unpaid does nothing, async success credits", async () => {
    const start = await balanceBytes(t.app, bob);
    const { order, sessionId } = await cardOrderWithSession(bob, 3);
    const session = { id: sessionId, orderId: order.order_id };
    await deliver(
      sessionEvent("evt_unpaid", "checkout.session.completed", { ...session, paymentStatus: "unpaid" }),
    );
    expect((await getOrder(t.app, bob, order.order_id)).payment_status).toBe("waiting");
    await deliver(sessionEvent("evt_async_ok", "checkout.session.async_payment_succeeded", session));
    expect((await getOrder(t.app, bob, order.order_id)).payment_status).toBe("paid");
    expect(await balanceBytes(t.app, bob)).toBe(start + 1 * GB);
  });

  it("marks an order failed when the delayed payment fails", async () => {
    const start = await balanceBytes(t.app, bob);
    const { order, sessionId } = await cardOrderWithSession(bob, 3);
    const response = await deliver(
      sessionEvent("evt_async_fail", "checkout.session.async_payment_failed", {
        id: sessionId,
        orderId: order.order_id,
      }),
    );
    expect(response.statusCode).toBe(200);
    expect((await getOrder(t.app, bob, order.order_id)).payment_status).toBe("failed");
    expect(await balanceBytes(t.app, bob)).toBe(start);
  });

  it("refuses unsigned, badly signed and tampered events and changes nothing", async () => {
    const start = await balanceBytes(t.app, alice);
    const { order, sessionId } = await cardOrderWithSession(alice, 30);
    const payload = sessionEvent("evt_forged", "checkout.session.completed", {
      id: sessionId,
      orderId: order.order_id,
    });
    const wrongSecret = signer.webhooks.generateTestHeaderString({ payload, secret: "whsec_not_ours" });
    const goodForOther = signer.webhooks.generateTestHeaderString({
      payload: payload.replace("evt_forged", "evt_other"),
      secret: WEBHOOK_SECRET,
    });
    const stale = signer.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    for (const signature of [null, "", "t=1,v1=deadbeef", wrongSecret, goodForOther, stale]) {
      const response = await deliver(payload, signature);
      expect(response.statusCode, String(signature)).toBe(400);
      expect(response.json()).toEqual({ success: false, message: "Invalid signature" });
    }
    expect((await getOrder(t.app, alice, order.order_id)).payment_status).toBe("waiting");
    expect(await balanceBytes(t.app, alice)).toBe(start);
    expect(await t.database.query("SELECT id FROM stripe_events WHERE id = 'evt_forged'")).toHaveLength(0);
  });

  it("acknowledges signed events about orders it does not know without changing anything", async () => {
    const response = await deliver(
      sessionEvent("evt_elsewhere", "checkout.session.completed", {
        id: "cs_other",
        orderId: "00000000-0000-4000-8000-000000000000",
      }),
    );
    expect(response.statusCode).toBe(200);
    const other = await deliver(
      JSON.stringify({ id: "evt_x", object: "event", type: "customer.created", data: { object: {} } }),
    );
    expect(other.statusCode).toBe(200);
  });
});
