import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signNowPaymentsBody } from "../../../src/modules/payments/nowpayments-signature.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { balanceBytes, type Customer, createOrder, customer, GB, getOrder } from "../orders/helpers.ts";
import { type FakeNowPayment, type NowPaymentsStandIn, startNowPaymentsStandIn } from "./stand-in-server.ts";

const IPN_SECRET = "ipn-secret-for-tests";
const API_KEY = "np-api-key";

let t: TestApp;
let api: NowPaymentsStandIn;
let alice: Customer;
let bob: Customer;
let down = false;

beforeAll(async () => {
  api = await startNowPaymentsStandIn({ apiKey: API_KEY, firstId: 5_000_000, isDown: () => down });
  t = await createTestApp({
    CRYPTO_PROVIDER: "nowpayments",
    NOWPAYMENTS_API_URL: api.url,
    NOWPAYMENTS_API_KEY: API_KEY,
    NOWPAYMENTS_IPN_SECRET: IPN_SECRET,
  });
  alice = await customer(t.app, "alice@example.com");
  bob = await customer(t.app, "bob@example.com");
});
afterAll(async () => {
  await t?.close();
  await api?.close();
});

function paymentFor(orderId: string): FakeNowPayment {
  const payment = api.paymentOf(orderId);
  if (!payment) throw new Error(`no payment for ${orderId}`);
  return payment;
}

/** An IPN as NOWPayments sends it: the payment's fields, signed (unless told otherwise). */
function ipn(payment: FakeNowPayment, claims: Partial<FakeNowPayment> = {}, signature?: string | null) {
  const body = { ...payment, ...claims, updated_at: 1_700_000_000_000 };
  const sig = signature === undefined ? signNowPaymentsBody(body, IPN_SECRET) : signature;
  return t.app.inject({
    method: "POST",
    url: "/webhooks/crypto",
    headers: sig === null ? {} : { "x-nowpayments-sig": sig },
    payload: body,
  });
}

describe("NOWPayments orders", () => {
  it("creates the payment through the provider's API and shows its address and amount", async () => {
    const order = await createOrder(t.app, alice, { amount: 15, network_type: "solana" });
    const sent = JSON.parse(api.requests.at(-1)?.body ?? "{}");
    expect(sent).toMatchObject({
      price_amount: 15,
      price_currency: "usd",
      pay_currency: "usdcsol",
      order_id: order.order_id,
      ipn_callback_url: "http://localhost:3000/webhooks/crypto",
    });
    const payment = paymentFor(order.order_id);
    expect(order).toMatchObject({
      pay_address: payment.pay_address,
      price_amount: 15.02,
      payment_status: "waiting",
    });
    expect(order.qr_code).toMatch(/^data:image\/png;base64,/);
  });

  it("answers 502 with a message and creates no order when the provider is down", async () => {
    down = true;
    try {
      const response = await t.app.inject({
        method: "POST",
        url: "/transactions",
        headers: bob.headers,
        payload: { amount: 3, network_type: "base" },
      });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toEqual({
        success: false,
        message: "The crypto payment provider is unavailable. Please try again.",
      });
    } finally {
      down = false;
    }
    const list = await t.app.inject({ method: "GET", url: "/transactions", headers: bob.headers });
    expect(list.json().total).toBe(0);
  });
});

describe("POST /webhooks/crypto", () => {
  it("credits once the provider itself confirms the payment, however often the IPN comes", async () => {
    const start = await balanceBytes(t.app, alice);
    const order = await createOrder(t.app, alice, { amount: 30, network_type: "polygon" });
    const payment = paymentFor(order.order_id);
    Object.assign(payment, {
      payment_status: "finished",
      actually_paid: payment.pay_amount,
      payin_hash: "0xabc123",
    });
    const results = await Promise.all([ipn(payment), ipn(payment), ipn(payment)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const paid = await getOrder(t.app, alice, order.order_id);
    expect(paid).toMatchObject({
      payment_status: "paid",
      payin_hash: "0xabc123",
      transaction_url: "https://polygonscan.com/tx/0xabc123",
    });
    expect(await balanceBytes(t.app, alice)).toBe(start + 10 * GB);
  });

  it("believes the provider's API, not the callback: a signed 'finished' for a waiting payment credits nothing", async () => {
    const start = await balanceBytes(t.app, alice);
    const order = await createOrder(t.app, alice, { amount: 3, network_type: "ethereum" });
    const payment = paymentFor(order.order_id);
    const response = await ipn(payment, { payment_status: "finished", actually_paid: 100 });
    expect(response.statusCode).toBe(200);
    expect((await getOrder(t.app, alice, order.order_id)).payment_status).toBe("waiting");
    expect(await balanceBytes(t.app, alice)).toBe(start);
  });

  it("credits nothing for a partial payment and says what arrived, then the whole order once it is finished", async () => {
    const start = await balanceBytes(t.app, bob);
    const order = await createOrder(t.app, bob, { amount: 30, network_type: "base" });
    const payment = paymentFor(order.order_id);
    Object.assign(payment, { payment_status: "partially_paid", actually_paid: 12.5 });
    await ipn(payment);
    expect(await getOrder(t.app, bob, order.order_id)).toMatchObject({
      payment_status: "partially_paid",
      note: "Received 12.50 of 30.015 USDC.",
      balance_gb_after: null,
    });
    expect(await balanceBytes(t.app, bob)).toBe(start);
    await ipn(payment);
    expect(await balanceBytes(t.app, bob)).toBe(start);
    Object.assign(payment, { actually_paid: 29.999999 }); // more arrived, still short
    await ipn(payment);
    expect((await getOrder(t.app, bob, order.order_id)).note).toBe("Received 29.999999 of 30.015 USDC.");
    expect(await balanceBytes(t.app, bob)).toBe(start);
    Object.assign(payment, { payment_status: "finished", actually_paid: payment.pay_amount });
    await Promise.all([ipn(payment), ipn(payment)]);
    expect((await getOrder(t.app, bob, order.order_id)).payment_status).toBe("paid");
    expect(await balanceBytes(t.app, bob)).toBe(start + 10 * GB);
    expect(await ledgerOf(order.order_id)).toEqual([{ kind: "purchase", delta: 10 * GB }]);
  });

  it("marks failed and expired payments, and still credits a late payment after expiry", async () => {
    const start = await balanceBytes(t.app, bob);
    const failed = await createOrder(t.app, bob, { amount: 3, network_type: "solana" });
    Object.assign(paymentFor(failed.order_id), { payment_status: "refunded" });
    await ipn(paymentFor(failed.order_id));
    expect((await getOrder(t.app, bob, failed.order_id)).payment_status).toBe("failed");

    const late = await createOrder(t.app, bob, { amount: 3, network_type: "solana" });
    const payment = paymentFor(late.order_id);
    Object.assign(payment, { payment_status: "expired" });
    await ipn(payment);
    expect((await getOrder(t.app, bob, late.order_id)).payment_status).toBe("expired");
    Object.assign(payment, { payment_status: "confirmed", actually_paid: payment.pay_amount });
    await ipn(payment);
    expect((await getOrder(t.app, bob, late.order_id)).payment_status).toBe("paid");
    expect(await balanceBytes(t.app, bob)).toBe(start + 1 * GB);
  });

  it("refuses unsigned, badly signed and tampered callbacks and changes nothing", async () => {
    const start = await balanceBytes(t.app, alice);
    const order = await createOrder(t.app, alice, { amount: 6, network_type: "solana" });
    const payment = paymentFor(order.order_id);
    payment.payment_status = "finished";
    const signedOriginal = signNowPaymentsBody({ ...payment, updated_at: 1_700_000_000_000 }, IPN_SECRET);
    const forgedWithOtherSecret = signNowPaymentsBody({ ...payment, updated_at: 1_700_000_000_000 }, "guess");
    for (const [claims, signature] of [
      [{}, null],
      [{}, ""],
      [{}, "not-hex"],
      [{}, forgedWithOtherSecret],
      [{ actually_paid: 999 }, signedOriginal],
    ] as const) {
      const response = await ipn(payment, claims, signature);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ success: false, message: "Invalid signature" });
    }
    expect((await getOrder(t.app, alice, order.order_id)).payment_status).toBe("waiting");
    expect(await balanceBytes(t.app, alice)).toBe(start);
    const notJson = await t.app.inject({
      method: "POST",
      url: "/webhooks/crypto",
      headers: { "content-type": "application/json", "x-nowpayments-sig": signedOriginal },
      payload: "[1,2",
    });
    expect(notJson.statusCode).toBe(400);
  });

  it("answers 404 for a signed callback about a payment it never created", async () => {
    const stranger = {
      ...paymentFor((await createOrder(t.app, bob, { amount: 3, network_type: "solana" })).order_id),
    };
    stranger.payment_id = 42;
    const response = await ipn(stranger);
    expect(response.statusCode).toBe(404);
  });
});

async function ledgerOf(orderId: string) {
  const rows = await t.database.query<{ kind: string; delta_bytes: string }>(
    "SELECT kind, delta_bytes FROM ledger_entries WHERE reference LIKE $1 ORDER BY id",
    [`order:${orderId}%`],
  );
  return rows.map((row) => ({ kind: row.kind, delta: Number(row.delta_bytes) }));
}

describe("POST /webhooks/crypto holds the provider's record against the order", () => {
  it("records and does not credit a payment for another price, currency or pay amount", async () => {
    const carol = await customer(t.app, "carol@example.com");
    const start = await balanceBytes(t.app, carol);
    const order = await createOrder(t.app, carol, { amount: 30, network_type: "polygon" });
    const payment = paymentFor(order.order_id);
    const honest = { ...payment };
    const records: Partial<FakeNowPayment>[] = [
      { price_amount: 1 },
      { price_currency: "eur" },
      { pay_currency: "usdcsol" },
      { pay_amount: 1, actually_paid: 1 },
    ];
    for (const record of records) {
      Object.assign(payment, honest, record, { payment_status: "finished" });
      payment.actually_paid = record.actually_paid ?? payment.pay_amount;
      expect((await ipn(payment)).statusCode).toBe(200);
      expect((await ipn(payment)).statusCode).toBe(200);
    }
    expect((await getOrder(t.app, carol, order.order_id)).payment_status).toBe("waiting");
    expect(await balanceBytes(t.app, carol)).toBe(start);
    const rejections = await t.database.query<{ reason: string }>(
      "SELECT reason FROM payment_rejections WHERE order_id = $1 ORDER BY id",
      [order.order_id],
    );
    expect(rejections.map((r) => r.reason)).toEqual([
      "price 1.00 usd is not the order's 30.00 usd",
      "price 30.00 eur is not the order's 30.00 usd",
      "pay amount 30.02 usdcsol is not the order's 30.02 usdcmatic",
      "pay amount 1.00 usdcmatic is not the order's 30.02 usdcmatic",
    ]);

    Object.assign(payment, honest, { payment_status: "finished", actually_paid: honest.pay_amount });
    await ipn(payment);
    expect((await getOrder(t.app, carol, order.order_id)).payment_status).toBe("paid");
    expect(await balanceBytes(t.app, carol)).toBe(start + 10 * GB);
  });

  it("debits a refunded payment's credit once, and credits it no more", async () => {
    const dave = await customer(t.app, "dave@example.com");
    const start = await balanceBytes(t.app, dave);
    const order = await createOrder(t.app, dave, { amount: 30, network_type: "base" });
    const payment = paymentFor(order.order_id);
    Object.assign(payment, { payment_status: "finished", actually_paid: payment.pay_amount });
    await ipn(payment);
    expect(await balanceBytes(t.app, dave)).toBe(start + 10 * GB);
    payment.payment_status = "refunded";
    const results = await Promise.all([ipn(payment), ipn(payment), ipn(payment)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await balanceBytes(t.app, dave)).toBe(start);
    expect((await getOrder(t.app, dave, order.order_id)).payment_status).toBe("refunded");
    expect(await ledgerOf(order.order_id)).toEqual([
      { kind: "purchase", delta: 10 * GB },
      { kind: "refund", delta: -10 * GB },
    ]);
    // A "finished" after the refund does not hand the data out again.
    Object.assign(payment, { payment_status: "finished", actually_paid: payment.pay_amount });
    await ipn(payment);
    expect(await balanceBytes(t.app, dave)).toBe(start);
  });

  it("closes a partially paid order that is refunded: nothing was credited, nothing is taken, nothing is credited after", async () => {
    const erin = await customer(t.app, "erin@example.com");
    const start = await balanceBytes(t.app, erin);
    const order = await createOrder(t.app, erin, { amount: 30, network_type: "base" });
    const payment = paymentFor(order.order_id);
    Object.assign(payment, { payment_status: "partially_paid", actually_paid: payment.pay_amount / 2 });
    await ipn(payment);
    payment.payment_status = "refunded";
    await Promise.all([ipn(payment), ipn(payment)]);
    expect((await getOrder(t.app, erin, order.order_id)).payment_status).toBe("refunded");
    expect(await balanceBytes(t.app, erin)).toBe(start);
    Object.assign(payment, { payment_status: "finished", actually_paid: payment.pay_amount });
    await ipn(payment);
    expect((await getOrder(t.app, erin, order.order_id)).payment_status).toBe("refunded");
    expect(await balanceBytes(t.app, erin)).toBe(start);
    expect(await ledgerOf(order.order_id)).toEqual([]);
  });
});

describe("POST /webhooks/crypto with hostile bodies", () => {
  it("answers a deeply nested body with a 4xx before anything walks it", async () => {
    const post = (payload: string) =>
      t.app.inject({
        method: "POST",
        url: "/webhooks/crypto",
        headers: { "content-type": "application/json", "x-nowpayments-sig": "a".repeat(128) },
        payload,
      });
    // 5,000 levels of objects take more bytes than a callback may have.
    const objects = await post(`${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`);
    expect(objects.statusCode).toBe(413);
    expect(objects.json().success).toBe(false);
    for (const payload of [
      `{"payment_id":1,"a":${"[".repeat(5000)}${"]".repeat(5000)}}`,
      `{"payment_id":1,"s":"${"[".repeat(100)}","n":${"[".repeat(9)}${"]".repeat(9)}}`,
    ]) {
      const response = await post(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ success: false, message: "Request body is nested too deeply." });
    }
  });

  it("answers an oversized body with a 413 and a bracket inside a string is just text", async () => {
    const big = await t.app.inject({
      method: "POST",
      url: "/webhooks/crypto",
      headers: { "content-type": "application/json", "x-nowpayments-sig": "a".repeat(128) },
      payload: JSON.stringify({ payment_id: 1, pad: "x".repeat(20_000) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().success).toBe(false);
    const quoted = await t.app.inject({
      method: "POST",
      url: "/webhooks/crypto",
      headers: { "content-type": "application/json", "x-nowpayments-sig": "a".repeat(128) },
      payload: JSON.stringify({ payment_id: 1, note: `${"[{".repeat(50)}\\"` }),
    });
    expect(quoted.statusCode).toBe(400);
    expect(quoted.json().message).toBe("Invalid signature");
  });
});

describe("a provider that answers with a payment id another order already holds", () => {
  it("answers 409 with a message and makes no order; the first order keeps its payment and is credited by it", async () => {
    const first = await createOrder(t.app, alice, { amount: 9, network_type: "solana" });
    const payment = paymentFor(first.order_id);
    const kept = new Map(api.payments);
    const countOrders = async () =>
      Number((await t.database.query<{ n: string }>("SELECT count(*) AS n FROM orders"))[0]?.n);
    const before = await countOrders();
    // The stand-in numbers payments by how many it holds: emptied, it hands out an id again.
    api.payments.clear();
    for (let i = 0; i < Number(payment.payment_id) - 5_000_000; i++) api.payments.set(`spare-${i}`, payment);
    try {
      const response = await t.app.inject({
        method: "POST",
        url: "/transactions",
        headers: bob.headers,
        payload: { amount: 4, network_type: "solana" },
      });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toEqual({
        success: false,
        message:
          "The payment provider answered with a payment that belongs to another order, so no order was made. Please try again.",
      });
    } finally {
      api.payments.clear();
      for (const [id, entry] of kept) api.payments.set(id, entry);
    }
    expect(await countOrders()).toBe(before);
    const start = await balanceBytes(t.app, alice);
    payment.payment_status = "finished";
    expect((await ipn(payment)).statusCode).toBe(200);
    expect(await balanceBytes(t.app, alice)).toBe(start + 3 * GB);
  });
});
