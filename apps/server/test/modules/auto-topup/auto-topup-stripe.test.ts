import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../helpers/test-app.ts";
import { type Customer, createTestAppWithPayments, customer } from "../orders/helpers.ts";
import { type RecordedRequest, type StandIn, startStandIn } from "../payments/stand-in-server.ts";
import { eventually } from "../webhooks/receiver.ts";
import {
  ADMIN_TOKEN,
  adjustBalance,
  armed,
  balanceBytesOf,
  GB,
  outboxSubjects,
  putSettings,
  readSettings,
  topupOrders,
} from "./helpers.ts";

const WEBHOOK_SECRET = "whsec_test_secret_for_auto_topup";
const signer = new Stripe("sk_test_signer_only");

/** Stripe's API as far as saving a card (customer, Checkout in setup mode, its setup intent) and
 * charging it off-session go. `pm_card_visa` pays; `pm_card_chargeDeclined` is declined, as
 * Stripe's own test payment methods are. */
function stripeStandIn(state: { completed: Set<string>; method: string; down: boolean }) {
  let sessions = 0;
  let intents = 0;
  return (request: RecordedRequest) => {
    const form = new URLSearchParams(request.body);
    if (request.method === "POST" && request.url === "/v1/customers") {
      return { status: 200, body: { id: "cus_test_1", object: "customer", email: form.get("email") } };
    }
    if (request.method === "POST" && request.url === "/v1/checkout/sessions") {
      sessions += 1;
      const id = `cs_setup_${sessions}`;
      return {
        status: 200,
        body: {
          id,
          object: "checkout.session",
          mode: form.get("mode"),
          url: `https://checkout.stripe.com/c/pay/${id}`,
          status: "open",
        },
      };
    }
    const read = /^\/v1\/checkout\/sessions\/(cs_setup_\d+)/.exec(request.url);
    if (request.method === "GET" && read?.[1]) {
      const done = state.completed.has(read[1]);
      return {
        status: 200,
        body: {
          id: read[1],
          object: "checkout.session",
          mode: "setup",
          status: done ? "complete" : "open",
          customer: "cus_test_1",
          setup_intent: done
            ? {
                id: `seti_${read[1]}`,
                object: "setup_intent",
                status: "succeeded",
                customer: "cus_test_1",
                payment_method: {
                  id: state.method,
                  object: "payment_method",
                  type: "card",
                  card: { brand: "visa", last4: state.method === "pm_card_visa" ? "4242" : "0002" },
                },
              }
            : null,
        },
      };
    }
    if (request.method === "POST" && request.url === "/v1/payment_intents") {
      if (state.down) return { status: 500, body: { error: { type: "api_error", message: "down" } } };
      intents += 1;
      const id = `pi_topup_${intents}`;
      if (form.get("payment_method") === "pm_card_chargeDeclined") {
        return {
          status: 402,
          body: {
            error: {
              type: "card_error",
              code: "card_declined",
              decline_code: "generic_decline",
              message: "Your card was declined.",
              payment_intent: { id, object: "payment_intent", status: "requires_payment_method" },
            },
          },
        };
      }
      return {
        status: 200,
        body: { id, object: "payment_intent", status: "succeeded", amount: Number(form.get("amount")) },
      };
    }
    if (request.method === "POST" && /^\/v1\/payment_methods\/[^/]+\/detach$/.test(request.url)) {
      return { status: 200, body: { id: request.url.split("/")[3], object: "payment_method" } };
    }
    return { status: 404, body: { error: { message: "no such route" } } };
  };
}

const state = { completed: new Set<string>(), method: "pm_card_visa", down: false };
let t: TestApp;
let stripeApi: StandIn;
let alice: Customer;

beforeAll(async () => {
  stripeApi = await startStandIn(stripeStandIn(state));
  t = await createTestAppWithPayments(
    { STRIPE_SECRET_KEY: "sk_test_bytetoll", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, ADMIN_TOKEN },
    { stripeApi: { host: "127.0.0.1", port: stripeApi.port, protocol: "http" } },
  );
  alice = await customer(t.app, "stripe-topup@example.com");
});
afterAll(async () => {
  await t?.close();
  await stripeApi?.close();
});

/** Opens the card page (Checkout in setup mode) and returns the session id in its URL. */
async function openCardPage(): Promise<string> {
  const opened = await t.app.inject({
    method: "POST",
    url: "/settings/auto-topup/card",
    headers: alice.headers,
  });
  expect(opened.statusCode, opened.body).toBe(200);
  const url: string = opened.json().data.redirect_url;
  expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_setup_\d+$/);
  return url.split("/").at(-1) ?? "";
}

function postWebhook(payload: string) {
  const header = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return t.app.inject({
    method: "POST",
    url: "/webhooks/stripe",
    headers: { "stripe-signature": header, "content-type": "application/json" },
    payload,
  });
}

describe("auto top-up with Stripe", () => {
  it("saves the card of a Checkout session in setup mode once Stripe says it is complete (webhook)", async () => {
    const sessionId = await openCardPage();
    const created = stripeApi.requests.find((r) => r.url === "/v1/checkout/sessions");
    const form = new URLSearchParams(created?.body);
    expect(form.get("mode")).toBe("setup");
    expect(form.get("customer")).toBe("cus_test_1");
    // Not completed yet: no card.
    expect((await readSettings(t.app, alice)).card).toBeNull();
    const completed = (eventId: string) =>
      JSON.stringify({
        id: eventId,
        object: "event",
        type: "checkout.session.completed",
        api_version: "2025-10-29.clover",
        created: 1_700_000_000,
        data: { object: { id: sessionId, object: "checkout.session", mode: "setup", status: "complete" } },
      });
    const savedMethod = async () =>
      (await t.database.query<{ m: string | null }>("SELECT provider_method_id AS m FROM auto_topups"))[0]?.m;
    // The server reads the session back from Stripe: an event Stripe does not stand behind saves nothing.
    expect((await postWebhook(completed("evt_setup_early"))).statusCode).toBe(200);
    expect(await savedMethod()).toBeNull();
    state.completed.add(sessionId);
    expect((await postWebhook(completed("evt_setup_done"))).statusCode).toBe(200);
    expect(await savedMethod()).toBe("pm_card_visa");
    expect((await readSettings(t.app, alice)).card).toEqual({ brand: "visa", last4: "4242" });
  });

  it("charges the saved card off-session when the balance falls below the threshold, once", async () => {
    const saved = await putSettings(t.app, alice, {
      enabled: true,
      threshold_gb: 1,
      amount_usd: 30,
      monthly_cap_usd: 100,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await adjustBalance(t.app, alice, -0.5);
    await eventually(
      "the top-up paid",
      () => topupOrders(t.app, alice.id),
      (rows) => rows[0]?.payment_status === "paid",
    );
    const charges = stripeApi.requests.filter((r) => r.url === "/v1/payment_intents");
    expect(charges).toHaveLength(1);
    const form = new URLSearchParams(charges[0]?.body);
    expect(
      Object.fromEntries(
        ["amount", "currency", "customer", "payment_method", "off_session", "confirm"].map((k) => [
          k,
          form.get(k),
        ]),
      ),
    ).toEqual({
      amount: "3000",
      currency: "usd",
      customer: "cus_test_1",
      payment_method: "pm_card_visa",
      off_session: "true",
      confirm: "true",
    });
    const [order] = await topupOrders(t.app, alice.id);
    expect(charges[0]?.headers["idempotency-key"]).toBe(`topup-${order?.id}`);
    expect(order?.provider).toBe("stripe");
    expect(await balanceBytesOf(t.app, alice.id)).toBe(10.5 * GB);
    // Stripe's refund names the payment intent: the order holds it.
    const [held] = await t.database.query<{ pi: string }>(
      "SELECT provider_payment_id AS pi FROM orders WHERE id = $1",
      [order?.id],
    );
    expect(held?.pi).toBe("pi_topup_1");
  });

  it("records a declined card as a failed top-up, e-mails the customer and credits nothing", async () => {
    state.method = "pm_card_chargeDeclined";
    const sessionId = await openCardPage();
    state.completed.add(sessionId);
    // No webhook this time: coming back to the dashboard reads the completed page from Stripe.
    expect((await readSettings(t.app, alice)).card).toEqual({ brand: "visa", last4: "0002" });
    expect(stripeApi.requests.some((r) => r.url === "/v1/payment_methods/pm_card_visa/detach")).toBe(true);
    const before = await balanceBytesOf(t.app, alice.id);
    // The paid top-up lifted the balance above the threshold, which armed the next one at once.
    await adjustBalance(t.app, alice, -10);
    await eventually(
      "the top-up failed",
      () => topupOrders(t.app, alice.id),
      (rows) => rows[1]?.payment_status === "failed",
    );
    expect(await balanceBytesOf(t.app, alice.id)).toBe(before - 10 * GB);
    await eventually(
      "the e-mail",
      () => outboxSubjects(t.app, "stripe-topup@example.com"),
      (s) => s.includes("Your auto top-up of $30 failed"),
    );
    expect(await readSettings(t.app, alice)).toMatchObject({
      enabled: true,
      failures: 1,
      spent_this_month_usd: 30,
    });
  });

  it("charges a top-up left waiting by an unreachable provider from the sweep, once, with the same key", async () => {
    const card = await openCardPage();
    state.method = "pm_card_visa";
    state.completed.add(card);
    expect((await readSettings(t.app, alice)).card?.last4).toBe("4242");
    // Back above the threshold (re-armed), then down again while Stripe cannot be reached.
    await adjustBalance(t.app, alice, 2);
    await armed(t.app, alice.id);
    state.down = true;
    const before = (await topupOrders(t.app, alice.id)).length;
    await adjustBalance(t.app, alice, -2);
    const waiting = await eventually(
      "the top-up made, its charge refused",
      () => topupOrders(t.app, alice.id),
      (rows) => rows.length === before + 1,
    );
    const orderId = waiting.at(-1)?.id ?? "";
    await eventually(
      "the charge tried",
      () => stripeApi.requests.filter((r) => r.headers["idempotency-key"] === `topup-${orderId}`),
      (tries) => tries.length >= 1,
    );
    expect((await topupOrders(t.app, alice.id)).at(-1)?.payment_status).toBe("waiting");
    // The provider is back; the order is older than the sweep's wait (as after a stopped instance).
    state.down = false;
    await t.database.query("UPDATE orders SET created_at = created_at - interval '1 minute' WHERE id = $1", [
      orderId,
    ]);
    await Promise.all([t.app.autoTopup.topups.sweep(), t.app.autoTopup.topups.sweep()]);
    expect((await topupOrders(t.app, alice.id)).find((row) => row.id === orderId)?.payment_status).toBe(
      "paid",
    );
    const keys = new Set(
      stripeApi.requests
        .filter((r) => r.url === "/v1/payment_intents" && r.body.includes(orderId))
        .map((r) => r.headers["idempotency-key"]),
    );
    expect([...keys]).toEqual([`topup-${orderId}`]);
    const [credited] = await t.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND kind = 'purchase' AND reference LIKE $2",
      [alice.id, `order:${orderId}:%`],
    );
    expect(credited?.n).toBe(1);
  });
});
