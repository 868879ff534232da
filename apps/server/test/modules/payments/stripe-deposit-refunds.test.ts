import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../helpers/test-app.ts";
import { ADMIN_TOKEN, createDeal, getDeal, totalDeposit } from "../deals/helpers.ts";
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

const WEBHOOK_SECRET = "whsec_test_secret_for_deposits";
const signer = new Stripe("sk_test_signer_only");

let t: TestApp;
let stripeApi: StandIn;
let sessions = 0;

beforeAll(async () => {
  stripeApi = await startStandIn((request) => {
    if (request.method === "POST" && request.url === "/v1/checkout/sessions") {
      const id = `cs_deposit_${++sessions}`;
      return {
        status: 200,
        body: { id, object: "checkout.session", url: `https://checkout.stripe.com/c/pay/${id}` },
      };
    }
    return { status: 404, body: { error: { message: "no such route" } } };
  });
  t = await createTestAppWithPayments(
    { ADMIN_TOKEN, STRIPE_SECRET_KEY: "sk_test_bytetoll", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    { stripeApi: { host: "127.0.0.1", port: stripeApi.port, protocol: "http" } },
  );
});
afterAll(async () => {
  await t?.close();
  await stripeApi?.close();
});

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

/** A group-buy deposit of `usd` paid by card through Stripe Checkout. */
async function cardDeposit(who: Customer, dealId: string, usd: number) {
  const order = await createOrder(t.app, who, { amount: usd, method: "card", deal_id: dealId });
  const opened = await t.app.inject({
    method: "POST",
    url: "/stripe/sessions",
    headers: who.headers,
    payload: { order_id: order.order_id },
  });
  expect(opened.statusCode, opened.body).toBe(200);
  const sessionId = String(opened.json().data.redirect_url).split("/").at(-1);
  const paid = await deliver({
    id: `evt_paid_${sessionId}`,
    type: "checkout.session.completed",
    data: {
      object: {
        id: sessionId,
        object: "checkout.session",
        payment_status: "paid",
        status: "complete",
        amount_total: usd * 100,
        currency: "usd",
        payment_intent: `pi_for_${sessionId}`,
        metadata: { order_id: order.order_id },
      },
    },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  return {
    orderId: order.order_id,
    refund: (refundedCents: number, eventId: string) =>
      deliver({
        id: eventId,
        type: "charge.refunded",
        data: {
          object: {
            id: `ch_for_${sessionId}`,
            object: "charge",
            amount: usd * 100,
            amount_refunded: refundedCents,
            currency: "usd",
            refunded: refundedCents >= usd * 100,
            payment_intent: `pi_for_${sessionId}`,
          },
        },
      }),
  };
}

async function deposit(orderId: string) {
  const [row] = await t.database.query<{ amount_cents: string; refunded_cents: string; status: string }>(
    "SELECT amount_cents, refunded_cents, status FROM deal_deposits WHERE order_id = $1",
    [orderId],
  );
  return { held: Number(row?.amount_cents), refunded: Number(row?.refunded_cents), status: row?.status };
}

describe("a card refund of part of a group-buy deposit takes only that part", () => {
  it("a held $50 deposit refunded $1 stays held with $49; the rest refunded reverses it", async () => {
    const deal = await createDeal(t.app, { deal_type: "group_buy", deal_price: 1, deal_target_gb: 1000 });
    const who = await customer(t.app, "partial-held@example.com");
    const paid = await cardDeposit(who, deal.id, 50);
    expect(await totalDeposit(t.app, who, deal.id)).toBe(50);

    expect((await paid.refund(100, "evt_refund_1")).statusCode).toBe(200);
    expect(await totalDeposit(t.app, who, deal.id)).toBe(49);
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(49);
    expect((await getOrder(t.app, who, paid.orderId)).payment_status).toBe("paid");
    expect(await deposit(paid.orderId)).toEqual({ held: 4900, refunded: 100, status: "held" });
    // Redelivered, or an older running total arriving late: nothing more goes.
    expect((await paid.refund(100, "evt_refund_1")).statusCode).toBe(200);
    expect((await paid.refund(100, "evt_refund_1_again")).statusCode).toBe(200);
    expect(await deposit(paid.orderId)).toEqual({ held: 4900, refunded: 100, status: "held" });

    expect((await paid.refund(5000, "evt_refund_all")).statusCode).toBe(200);
    expect(await deposit(paid.orderId)).toEqual({ held: 0, refunded: 5000, status: "reversed" });
    expect(await totalDeposit(t.app, who, deal.id)).toBe(0);
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(0);
    expect((await getOrder(t.app, who, paid.orderId)).payment_status).toBe("refunded");
  });

  it("a credited deposit refunded in part gives back the GB of that part only, once", async () => {
    const deal = await createDeal(t.app, { deal_type: "group_buy", deal_price: 1, deal_target_gb: 50 });
    const who = await customer(t.app, "partial-credited@example.com");
    const start = await balanceBytes(t.app, who);
    const paid = await cardDeposit(who, deal.id, 50);
    expect((await getDeal(t.app, deal.id)).status).toBe("activated");
    expect(await balanceBytes(t.app, who)).toBe(start + 50 * GB);

    expect((await paid.refund(1000, "evt_credited_refund_10")).statusCode).toBe(200);
    expect((await paid.refund(1000, "evt_credited_refund_10_again")).statusCode).toBe(200);
    expect(await balanceBytes(t.app, who)).toBe(start + 40 * GB);
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(40);
    expect(await deposit(paid.orderId)).toEqual({ held: 4000, refunded: 1000, status: "credited" });

    expect((await paid.refund(2500, "evt_credited_refund_25")).statusCode).toBe(200);
    expect(await balanceBytes(t.app, who)).toBe(start + 25 * GB);
    const mismatches = await t.database.query(
      `SELECT u.id FROM users u LEFT JOIN ledger_entries l ON l.user_id = u.id
        GROUP BY u.id, u.balance_bytes HAVING u.balance_bytes <> coalesce(sum(l.delta_bytes), 0)`,
    );
    expect(mismatches).toEqual([]);
  });
});
