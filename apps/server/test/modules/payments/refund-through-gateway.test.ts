import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Gateway } from "@bytetoll/gateway";
import { getThroughProxy } from "@bytetoll/gateway/testing";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestApp } from "../../helpers/test-app.ts";
import { startTestGateway } from "../../helpers/test-gateway.ts";
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

const WEBHOOK_SECRET = "whsec_test_refund_through_gateway";
const signer = new Stripe("sk_test_signer_only");
const BODY_BYTES = 2_000_000;
/** The gateway gives back the leases of a balance ≤ 0 at its next upkeep (≤ 2 s after a flush). */
const REFUSAL_WITHIN_MS = 10_000;

let t: TestApp;
let stripeApi: StandIn;
let gateway: Gateway;
let origin: http.Server;

beforeAll(async () => {
  // Stripe's API as far as opening a Checkout Session goes.
  stripeApi = await startStandIn((request) => {
    if (request.method === "POST" && request.url === "/v1/checkout/sessions") {
      const id = `cs_test_refund_${stripeApi.requests.length}`;
      return {
        status: 200,
        body: { id, object: "checkout.session", url: `https://checkout.stripe.com/c/pay/${id}` },
      };
    }
    return { status: 404, body: { error: { message: "no such route" } } };
  });
  // No free GB: the only data this customer holds is what the card paid for.
  t = await createTestAppWithPayments(
    { STRIPE_SECRET_KEY: "sk_test_bytetoll", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, FREE_GB: "0" },
    { stripeApi: { host: "127.0.0.1", port: stripeApi.port, protocol: "http" } },
  );
  origin = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/octet-stream", "content-length": BODY_BYTES });
    response.end(Buffer.alloc(BODY_BYTES, 120));
  });
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  gateway = await startTestGateway(t.database, { flushIntervalMs: 200 });
});
afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
  await t?.close();
  await stripeApi?.close();
});

/** A signed Stripe event, delivered to POST /webhooks/stripe. */
function deliver(event: Record<string, unknown>) {
  const payload = JSON.stringify({ object: "event", api_version: "2025-10-29.clover", created: 1, ...event });
  return t.app.inject({
    method: "POST",
    url: "/webhooks/stripe",
    headers: {
      "content-type": "application/json",
      "stripe-signature": signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    },
    payload,
  });
}

/** A card order paid in full through Stripe Checkout; returns its session's payment intent. */
async function paidCardOrder(who: Customer, amountUsd: number) {
  const order = await createOrder(t.app, who, { amount: amountUsd, method: "card" });
  const opened = await t.app.inject({
    method: "POST",
    url: "/stripe/sessions",
    headers: who.headers,
    payload: { order_id: order.order_id },
  });
  expect(opened.statusCode, opened.body).toBe(200);
  const sessionId = String(opened.json().data.redirect_url).split("/").at(-1) ?? "";
  const paymentIntent = `pi_for_${sessionId}`;
  const completed = await deliver({
    id: `evt_paid_${sessionId}`,
    type: "checkout.session.completed",
    data: {
      object: {
        id: sessionId,
        object: "checkout.session",
        payment_status: "paid",
        status: "complete",
        amount_total: amountUsd * 100,
        currency: "usd",
        payment_intent: paymentIntent,
        client_reference_id: order.order_id,
        metadata: { order_id: order.order_id },
      },
    },
  });
  expect(completed.statusCode, completed.body).toBe(200);
  return { orderId: order.order_id, paymentIntent, amountCents: amountUsd * 100 };
}

/** One plain-HTTP request through the gateway as a proxy client sends it; the status, refusal
 * code and body length once the response has been read to its end. */
function throughGateway(username: string, password: string) {
  const target = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/bytes`;
  return getThroughProxy({ proxyPort: gateway.httpPort, target, username, password });
}

describe("a card payment refunded in full after some of its data was used", () => {
  it("takes the whole credit back, leaves the balance negative, and the proxy refuses the customer with 402", async () => {
    const who = await customer(t.app, "refunded-card@example.com");
    expect(await balanceBytes(t.app, who)).toBe(0);
    const paid = await paidCardOrder(who, 3);
    expect(await balanceBytes(t.app, who)).toBe(1 * GB);

    const credentials = await t.app.inject({
      method: "GET",
      url: "/credentials/latest",
      headers: who.headers,
    });
    expect(credentials.statusCode, credentials.body).toBe(200);
    const { username, password } = credentials.json().data;
    for (let i = 0; i < 2; i++) {
      const relayed = await throughGateway(username, password);
      expect(relayed).toMatchObject({ status: 200, bytes: BODY_BYTES });
    }
    // The gateway's flush bills what was relayed.
    const afterUse = await vi.waitFor(
      async () => {
        const balance = await balanceBytes(t.app, who);
        expect(balance).toBeLessThanOrEqual(1 * GB - 2 * BODY_BYTES);
        return balance;
      },
      { timeout: 5_000, interval: 100 },
    );
    const used = 1 * GB - afterUse;
    expect(used).toBeGreaterThanOrEqual(2 * BODY_BYTES);

    const refunded = await deliver({
      id: `evt_refund_${paid.paymentIntent}`,
      type: "charge.refunded",
      data: {
        object: {
          id: `ch_${paid.paymentIntent}`,
          object: "charge",
          amount: paid.amountCents,
          amount_refunded: paid.amountCents,
          currency: "usd",
          refunded: true,
          payment_intent: paid.paymentIntent,
        },
      },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect((await getOrder(t.app, who, paid.orderId)).payment_status).toBe("refunded");
    const balance = await balanceBytes(t.app, who);
    expect(balance).toBeLessThan(0);
    expect(balance).toBeLessThanOrEqual(-used);

    // Until the gateway notices, a request may still be let in, or cut mid-way when it does.
    const refused = await vi.waitFor(
      async () => {
        const answer = await throughGateway(username, password).catch(() => ({
          status: 0,
          error: "cut",
          bytes: 0,
        }));
        expect(answer.status).toBe(402);
        return answer;
      },
      { timeout: REFUSAL_WITHIN_MS, interval: 100 },
    );
    expect(refused).toMatchObject({ status: 402, error: "balance_exhausted" });
    // And it stays refused: nothing more is relayed on a negative balance.
    expect(await throughGateway(username, password)).toMatchObject({
      status: 402,
      error: "balance_exhausted",
    });
    expect(await balanceBytes(t.app, who)).toBeLessThanOrEqual(balance);
  }, 60_000);
});
