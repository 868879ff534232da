import { applyLedgerEntry } from "@bytetoll/db";
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
    // Which session a payment intent paid (the tests name intents pi_for_<session id>).
    const byIntent = /^\/v1\/checkout\/sessions\?(.*)$/.exec(request.url);
    if (request.method === "GET" && byIntent) {
      const intent = new URLSearchParams(byIntent[1]).get("payment_intent") ?? "";
      const data = intent.startsWith("pi_for_")
        ? [{ id: intent.slice("pi_for_".length), object: "checkout.session", payment_intent: intent }]
        : [];
      return { status: 200, body: { object: "list", data, has_more: false, url: "/v1/checkout/sessions" } };
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

interface Session {
  id: string;
  orderId: string;
  amountCents: number;
  paymentIntent: string;
  currency?: string;
  paymentStatus?: string;
}

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
  const sessionId = redirectUrl.split("/").at(-1) ?? "";
  const session: Session = {
    id: sessionId,
    orderId: order.order_id,
    amountCents: Math.round(amount * 100),
    paymentIntent: `pi_for_${sessionId}`,
  };
  return { order, redirectUrl, sessionId, session };
}

/** A Checkout Session event as Stripe sends it. */
function sessionEvent(id: string, type: string, session: Session): string {
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
        amount_total: session.amountCents,
        currency: session.currency ?? "usd",
        payment_intent: session.paymentIntent,
        client_reference_id: session.orderId,
        metadata: { order_id: session.orderId },
      },
    },
  });
}

/** A charge event (refund) or dispute event about the payment intent of a session. */
function chargeEvent(id: string, session: Session, amountRefunded: number): string {
  return JSON.stringify({
    id,
    object: "event",
    type: "charge.refunded",
    api_version: "2025-10-29.clover",
    created: 1_700_000_000,
    data: {
      object: {
        id: `ch_for_${session.id}`,
        object: "charge",
        amount: session.amountCents,
        amount_refunded: amountRefunded,
        currency: "usd",
        refunded: amountRefunded >= session.amountCents,
        payment_intent: session.paymentIntent,
      },
    },
  });
}

function disputeEvent(id: string, session: Session): string {
  return JSON.stringify({
    id,
    object: "event",
    type: "charge.dispute.created",
    api_version: "2025-10-29.clover",
    created: 1_700_000_000,
    data: {
      object: {
        id: `dp_for_${session.id}`,
        object: "dispute",
        amount: session.amountCents,
        currency: "usd",
        charge: `ch_for_${session.id}`,
        payment_intent: session.paymentIntent,
        status: "needs_response",
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
    const { order, session } = await cardOrderWithSession(alice, 15);
    const payload = sessionEvent("evt_paid_1", "checkout.session.completed", session);
    const deliveries = await Promise.all([deliver(payload), deliver(payload), deliver(payload)]);
    expect(deliveries.map((d) => d.statusCode)).toEqual([200, 200, 200]);
    expect((await getOrder(t.app, alice, order.order_id)).payment_status).toBe("paid");
    expect(await balanceBytes(t.app, alice)).toBe(start + 5 * GB);
    const events = await t.database.query(
      "SELECT event_id FROM provider_events WHERE provider = 'stripe' AND event_id = 'evt_paid_1'",
    );
    expect(events).toHaveLength(1);

    // A different event for the same paid order changes nothing either.
    await deliver(sessionEvent("evt_paid_2", "checkout.session.async_payment_succeeded", session));
    expect(await balanceBytes(t.app, alice)).toBe(start + 5 * GB);
  });

  it("waits for delayed methods: completed-but-unpaid does nothing, async success credits", async () => {
    const start = await balanceBytes(t.app, bob);
    const { order, session } = await cardOrderWithSession(bob, 3);
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
    const { order, session } = await cardOrderWithSession(bob, 3);
    const response = await deliver(
      sessionEvent("evt_async_fail", "checkout.session.async_payment_failed", session),
    );
    expect(response.statusCode).toBe(200);
    expect((await getOrder(t.app, bob, order.order_id)).payment_status).toBe("failed");
    expect(await balanceBytes(t.app, bob)).toBe(start);
  });

  it("refuses unsigned, badly signed and tampered events and changes nothing", async () => {
    const start = await balanceBytes(t.app, alice);
    const { order, session } = await cardOrderWithSession(alice, 30);
    const payload = sessionEvent("evt_forged", "checkout.session.completed", session);
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
    expect(
      await t.database.query("SELECT event_id FROM provider_events WHERE event_id = 'evt_forged'"),
    ).toHaveLength(0);
  });

  it("acknowledges signed events about orders it does not know without changing anything", async () => {
    const response = await deliver(
      sessionEvent("evt_elsewhere", "checkout.session.completed", {
        id: "cs_other",
        orderId: "00000000-0000-4000-8000-000000000000",
        amountCents: 100,
        paymentIntent: "pi_other",
      }),
    );
    expect(response.statusCode).toBe(200);
    const other = await deliver(
      JSON.stringify({ id: "evt_x", object: "event", type: "customer.created", data: { object: {} } }),
    );
    expect(other.statusCode).toBe(200);
  });
});

async function paidCardOrder(who: Customer, amount: number, eventId: string) {
  const { order, session } = await cardOrderWithSession(who, amount);
  expect((await deliver(sessionEvent(eventId, "checkout.session.completed", session))).statusCode).toBe(200);
  expect((await getOrder(t.app, who, order.order_id)).payment_status).toBe("paid");
  return { order, session };
}

async function ledgerEntries(orderId: string) {
  const rows = await t.database.query<{ kind: string; reference: string; delta_bytes: string }>(
    "SELECT kind, reference, delta_bytes FROM ledger_entries WHERE reference LIKE $1 ORDER BY id",
    [`order:${orderId}%`],
  );
  return rows.map((row) => ({ kind: row.kind, reference: row.reference, delta: Number(row.delta_bytes) }));
}

async function rejections(orderId: string) {
  return t.database.query<{ reason: string }>(
    "SELECT reason FROM payment_rejections WHERE order_id = $1 ORDER BY id",
    [orderId],
  );
}

describe("POST /webhooks/stripe credits only what the order's own session paid", () => {
  it("records and does not credit a signed session that is not the order's, or pays another amount or currency", async () => {
    const carol = await customer(t.app, "carol@example.com");
    const start = await balanceBytes(t.app, carol);
    const { order, session } = await cardOrderWithSession(carol, 100_000);
    const attempts = [
      // Another checkout on the same Stripe account that names our order (e.g. a payment link's
      // client_reference_id), paying $1.
      { ...session, id: "cs_test_not_the_orders", amountCents: 100, paymentIntent: "pi_evil" },
      { ...session, amountCents: 100 },
      { ...session, currency: "eur" },
      { ...session, amountCents: 10_000_001 },
    ];
    for (const [i, attempt] of attempts.entries()) {
      const response = await deliver(
        sessionEvent(`evt_mismatch_${i}`, "checkout.session.completed", attempt),
      );
      expect(response.statusCode).toBe(200);
    }
    expect((await getOrder(t.app, carol, order.order_id)).payment_status).toBe("waiting");
    expect(await balanceBytes(t.app, carol)).toBe(start);
    expect(await ledgerEntries(order.order_id)).toEqual([]);
    const reasons = (await rejections(order.order_id)).map((r) => r.reason);
    expect(reasons).toEqual([
      "session cs_test_not_the_orders is not the order's",
      "session total 100 usd is not the order's 10000000 usd",
      "session total 10000000 eur is not the order's 10000000 usd",
      "session total 10000001 usd is not the order's 10000000 usd",
    ]);
    // Nor can another session expire or fail the order.
    await deliver(
      sessionEvent("evt_mismatch_expire", "checkout.session.expired", { ...session, id: "cs_test_x" }),
    );
    expect((await getOrder(t.app, carol, order.order_id)).payment_status).toBe("waiting");

    // The order's own session for its price still credits.
    await deliver(sessionEvent("evt_match", "checkout.session.completed", session));
    expect((await getOrder(t.app, carol, order.order_id)).payment_status).toBe("paid");
    expect(await balanceBytes(t.app, carol)).toBeGreaterThan(start);
  });
});

describe("POST /webhooks/stripe refunds and disputes", () => {
  it("a full refund debits what the order credited once, and the balance may go negative", async () => {
    const dave = await customer(t.app, "dave@example.com");
    const { order, session } = await paidCardOrder(dave, 15, "evt_dave_paid");
    // The customer uses all of it (and the free gigabyte) before refunding.
    const used = await balanceBytes(t.app, dave);
    await applyLedgerEntry(t.database.db, {
      userId: dave.id,
      kind: "usage",
      reference: `usage:test:${dave.id}`,
      deltaBytes: -used,
    });
    // A write from outside the API: wait until this instance's caches have heard of it.
    await t.app.changeFeed.sync();
    expect(await balanceBytes(t.app, dave)).toBe(0);

    const refund = chargeEvent("evt_dave_refund", session, 1500);
    const deliveries = await Promise.all([deliver(refund), deliver(refund), deliver(refund)]);
    expect(deliveries.map((d) => d.statusCode)).toEqual([200, 200, 200]);
    await deliver(refund);
    expect(await balanceBytes(t.app, dave)).toBe(-5 * GB);
    const status = await t.app.inject({ method: "GET", url: "/account/status", headers: dave.headers });
    expect(status.json().data).toMatchObject({ balance_bytes: -5 * GB, balance_gb: -5 });
    expect(await ledgerEntries(order.order_id)).toEqual([
      { kind: "purchase", reference: `order:${order.order_id}:${5 * GB}`, delta: 5 * GB },
      { kind: "refund", reference: `order:${order.order_id}:${5 * GB}`, delta: -5 * GB },
    ]);
    expect(await getOrder(t.app, dave, order.order_id)).toMatchObject({
      payment_status: "refunded",
      balance_gb_after: -5,
    });

    // A late "paid" for the refunded order hands nothing out again; a second refund event neither.
    await deliver(sessionEvent("evt_dave_late", "checkout.session.async_payment_succeeded", session));
    await deliver(chargeEvent("evt_dave_refund_again", session, 1500));
    expect(await balanceBytes(t.app, dave)).toBe(-5 * GB);
  });

  it("a partial refund debits its share of the data; further refunds add up to the whole", async () => {
    const erin = await customer(t.app, "erin@example.com");
    const { order, session } = await paidCardOrder(erin, 30, "evt_erin_paid");
    const paid = await balanceBytes(t.app, erin);
    const quarter = chargeEvent("evt_erin_quarter", session, 750);
    await deliver(quarter);
    await deliver(quarter);
    expect(await balanceBytes(t.app, erin)).toBe(paid - 2.5 * GB);
    expect((await getOrder(t.app, erin, order.order_id)).payment_status).toBe("paid");
    // Stripe's running total: the second refund brings it to the whole charge.
    await deliver(chargeEvent("evt_erin_rest", session, 3000));
    await deliver(quarter);
    expect(await balanceBytes(t.app, erin)).toBe(paid - 10 * GB);
    expect((await getOrder(t.app, erin, order.order_id)).payment_status).toBe("refunded");
    const entries = await ledgerEntries(order.order_id);
    expect(entries.filter((e) => e.kind === "refund").map((e) => e.delta)).toEqual([-2.5 * GB, -7.5 * GB]);
  });

  it("a dispute debits what is left of the credit once, as a chargeback", async () => {
    const frank = await customer(t.app, "frank@example.com");
    const { order, session } = await paidCardOrder(frank, 30, "evt_frank_paid");
    const paid = await balanceBytes(t.app, frank);
    await deliver(chargeEvent("evt_frank_partial", session, 300));
    const dispute = disputeEvent("evt_frank_dispute", session);
    await Promise.all([deliver(dispute), deliver(dispute)]);
    await deliver(disputeEvent("evt_frank_dispute_2", session));
    expect(await balanceBytes(t.app, frank)).toBe(paid - 10 * GB);
    expect(await ledgerEntries(order.order_id)).toEqual([
      expect.objectContaining({ kind: "purchase" }),
      { kind: "refund", reference: `order:${order.order_id}:${1 * GB}`, delta: -1 * GB },
      { kind: "chargeback", reference: `order:${order.order_id}`, delta: -9 * GB },
    ]);
    // The refund that often follows a lost dispute takes nothing more.
    await deliver(chargeEvent("evt_frank_full", session, 3000));
    expect(await balanceBytes(t.app, frank)).toBe(paid - 10 * GB);
    expect((await getOrder(t.app, frank, order.order_id)).payment_status).toBe("refunded");
  });

  it("refunds an order credited before its payment intent was stored, finding it through Stripe", async () => {
    const hank = await customer(t.app, "hank@example.com");
    const { order, session } = await paidCardOrder(hank, 6, "evt_hank_paid");
    const paid = await balanceBytes(t.app, hank);
    // As the orders paid before payment intents were kept.
    await t.database.query("UPDATE orders SET provider_payment_id = NULL WHERE id = $1", [order.order_id]);
    await deliver(chargeEvent("evt_hank_refund", session, 600));
    expect(await balanceBytes(t.app, hank)).toBe(paid - 2 * GB);
    expect((await getOrder(t.app, hank, order.order_id)).payment_status).toBe("refunded");
    const asked = stripeApi.requests.filter((r) => r.method === "GET").at(-1);
    expect(asked?.url).toContain(`payment_intent=${session.paymentIntent}`);
  });

  it("asks for a refund again when it arrives before the payment it takes back", async () => {
    const ivy = await customer(t.app, "ivy@example.com");
    const start = await balanceBytes(t.app, ivy);
    const { order, session } = await cardOrderWithSession(ivy, 3);
    const early = await deliver(chargeEvent("evt_ivy_refund", session, 300));
    expect(early.statusCode).toBe(409);
    expect(early.json().success).toBe(false);
    await deliver(sessionEvent("evt_ivy_paid", "checkout.session.completed", session));
    expect(await balanceBytes(t.app, ivy)).toBe(start + 1 * GB);
    // Stripe's retry of the refund.
    expect((await deliver(chargeEvent("evt_ivy_refund", session, 300))).statusCode).toBe(200);
    expect(await balanceBytes(t.app, ivy)).toBe(start);
    expect((await getOrder(t.app, ivy, order.order_id)).payment_status).toBe("refunded");
  });

  it("ignores refunds of payments no order holds, and refuses unsigned ones", async () => {
    const gina = await customer(t.app, "gina@example.com");
    const { session } = await paidCardOrder(gina, 3, "evt_gina_paid");
    const paid = await balanceBytes(t.app, gina);
    const stranger = { ...session, paymentIntent: "pi_not_ours" };
    expect((await deliver(chargeEvent("evt_gina_other", stranger, 300))).statusCode).toBe(200);
    expect((await deliver(disputeEvent("evt_gina_other_dp", stranger))).statusCode).toBe(200);
    const forged = chargeEvent("evt_gina_forged", session, 300);
    const wrongSecret = signer.webhooks.generateTestHeaderString({ payload: forged, secret: "whsec_no" });
    expect((await deliver(forged, wrongSecret)).statusCode).toBe(400);
    expect((await deliver(forged, null)).statusCode).toBe(400);
    expect(await balanceBytes(t.app, gina)).toBe(paid);
  });
});

describe("the order's provider events (payment_events)", () => {
  const eventsOf = (orderId: string) =>
    t.database.query<{ event_type: string; provider_reference: string; outcome: string; summary: unknown }>(
      "SELECT event_type, provider_reference, outcome, summary FROM payment_events WHERE order_id = $1 ORDER BY id",
      [orderId],
    );

  it("records each signed event with its outcome and amount, a redelivery as a duplicate, a forged one not at all", async () => {
    const { order, session } = await cardOrderWithSession(bob, 12);
    const paid = sessionEvent("evt_rec_paid", "checkout.session.completed", session);
    expect((await deliver(paid, "t=1,v1=forged")).statusCode).toBe(400);
    expect(await eventsOf(order.order_id)).toEqual([]);
    expect((await deliver(paid)).statusCode).toBe(200);
    expect((await deliver(paid)).statusCode).toBe(200);
    expect((await deliver(chargeEvent("evt_rec_refund", session, 600))).statusCode).toBe(200);
    expect(
      (
        await deliver(
          sessionEvent("evt_rec_other", "checkout.session.completed", { ...session, amountCents: 1 }),
        )
      ).statusCode,
    ).toBe(200);
    expect(await eventsOf(order.order_id)).toEqual([
      {
        event_type: "checkout.session.completed",
        provider_reference: "evt_rec_paid",
        outcome: "credited",
        summary: { amount: 12, currency: "usd" },
      },
      expect.objectContaining({ provider_reference: "evt_rec_paid", outcome: "ignored_duplicate" }),
      {
        event_type: "charge.refunded",
        provider_reference: "evt_rec_refund",
        outcome: "refunded",
        summary: { amount: 6, of: 12, currency: "usd" },
      },
      expect.objectContaining({ provider_reference: "evt_rec_other", outcome: "rejected" }),
    ]);
  });
});
