import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signNowPaymentsBody } from "../../../src/modules/payments/nowpayments-signature.ts";
import { balanceBytes, type Customer, createOrder, customer, sandboxPay } from "../orders/helpers.ts";
import {
  type FakeNowPayment,
  type NowPaymentsStandIn,
  startNowPaymentsStandIn,
} from "../payments/stand-in-server.ts";
import { type ConsoleApp, createConsoleApp, waitingOrder } from "./helpers.ts";

interface ProviderEvent {
  at: string;
  kind: string;
  summary: string;
  detail: Record<string, unknown>;
}

async function providerEvents(t: ConsoleApp, orderId: string): Promise<ProviderEvent[]> {
  const response = await t.app.inject({
    method: "GET",
    url: `/admin/orders/${orderId}`,
    headers: t.operator.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.events.filter((event: ProviderEvent) => event.kind === "provider_event");
}

const rowsOf = (t: ConsoleApp, orderId: string) =>
  t.database.query<{ event_type: string; outcome: string; summary: Record<string, unknown> }>(
    "SELECT event_type, outcome, summary FROM payment_events WHERE order_id = $1 ORDER BY id",
    [orderId],
  );

describe("provider events of a sandbox order", () => {
  let t: ConsoleApp;
  let alice: Customer;
  beforeAll(async () => {
    t = await createConsoleApp();
    alice = await customer(t.app, "alice@example.com");
  });
  afterAll(() => t?.close());

  it("records a sandbox payment once with its outcome and amount, and a repeat as unchanged", async () => {
    const orderId = await waitingOrder(t.app, alice, 10);
    expect(await providerEvents(t, orderId)).toEqual([]);
    expect((await sandboxPay(t.app, orderId, { amount_usd: 4 })).statusCode).toBe(200);
    expect((await sandboxPay(t.app, orderId)).statusCode).toBe(200);
    expect((await sandboxPay(t.app, orderId)).statusCode).toBe(200);
    const events = await providerEvents(t, orderId);
    expect(events.map((event) => event.summary)).toEqual([
      "sandbox sandbox.partially_paid: partially paid (4 of 10 usd)",
      "sandbox sandbox.paid: credited (10 usd)",
      "sandbox sandbox.paid: unchanged (10 usd)",
    ]);
    expect(events[1]?.detail).toMatchObject({ provider: "sandbox", outcome: "credited", amount: 10 });
  });
});

describe("provider events of a NOWPayments order", () => {
  const IPN_SECRET = "ipn-secret-for-events";
  const API_KEY = "np-api-key";
  let t: ConsoleApp;
  let api: NowPaymentsStandIn;
  let bob: Customer;

  beforeAll(async () => {
    api = await startNowPaymentsStandIn({ apiKey: API_KEY, firstId: 7_000_000 });
    t = await createConsoleApp({
      CRYPTO_PROVIDER: "nowpayments",
      NOWPAYMENTS_API_URL: api.url,
      NOWPAYMENTS_API_KEY: API_KEY,
      NOWPAYMENTS_IPN_SECRET: IPN_SECRET,
    });
    bob = await customer(t.app, "bob@example.com");
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  /** An IPN as NOWPayments sends it: the payment's fields, signed with `secret`. */
  const ipn = (payment: FakeNowPayment, secret = IPN_SECRET) => {
    const body = { ...payment, updated_at: 1_700_000_000_000 };
    return t.app.inject({
      method: "POST",
      url: "/webhooks/crypto",
      headers: { "x-nowpayments-sig": signNowPaymentsBody(body, secret) },
      payload: body,
    });
  };

  it("records each signed IPN with what it did, a refund too, and nothing for a forged one", async () => {
    const start = await balanceBytes(t.app, bob);
    const order = await createOrder(t.app, bob, { amount: 30, network_type: "base" });
    const payment = api.paymentOf(order.order_id);
    if (!payment) throw new Error("no payment");

    // Forged: the "finished" is in the provider's API, but the callback is not signed with our
    // secret, so it is refused before anything reads or records it.
    Object.assign(payment, { payment_status: "finished", actually_paid: payment.pay_amount });
    expect((await ipn(payment, "someone-elses-secret")).statusCode).toBe(400);
    expect(await rowsOf(t, order.order_id)).toEqual([]);
    expect(await balanceBytes(t.app, bob)).toBe(start);

    expect((await ipn(payment)).statusCode).toBe(200);
    expect((await ipn(payment)).statusCode).toBe(200);
    const credited = await balanceBytes(t.app, bob);
    expect(credited).toBeGreaterThan(start);
    expect(await rowsOf(t, order.order_id)).toEqual([
      {
        event_type: "finished",
        outcome: "credited",
        summary: { amount: 30.02, currency: "usdcbase", price: 30, price_currency: "usd" },
      },
      expect.objectContaining({ event_type: "finished", outcome: "unchanged" }),
    ]);

    payment.payment_status = "refunded";
    expect((await ipn(payment)).statusCode).toBe(200);
    expect(await balanceBytes(t.app, bob)).toBe(start);
    const events = await providerEvents(t, order.order_id);
    expect(events.map((event) => event.summary)).toEqual([
      "nowpayments finished: credited (30.02 usdcbase)",
      "nowpayments finished: unchanged (30.02 usdcbase)",
      "nowpayments refunded: refunded (30.02 usdcbase)",
    ]);
    expect(events[2]?.detail).toMatchObject({
      reference: `payment:${payment.payment_id}`,
      outcome: "refunded",
    });
    // Amounts only: nothing of the signature or the provider's payload is kept.
    expect(JSON.stringify(events)).not.toMatch(/pay_address|addr-|sig/);
  });
});
