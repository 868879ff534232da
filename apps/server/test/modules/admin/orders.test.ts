import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceBytes, type Customer, customer, ledgerMismatches, sandboxPay } from "../orders/helpers.ts";
import {
  audit,
  type ConsoleApp,
  createConsoleApp,
  OPERATOR_EMAIL,
  tokenHeaders,
  waitingOrder,
} from "./helpers.ts";

let t: ConsoleApp;
let alice: Customer;

beforeAll(async () => {
  t = await createConsoleApp();
  alice = await customer(t.app, "alice@example.com");
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: "GET", url, headers: t.operator.headers });
const act = (id: string, action: "mark-paid" | "expire") =>
  t.app.inject({ method: "POST", url: `/admin/orders/${id}/${action}`, headers: t.operator.headers });

const bytesOf = async (orderId: string) =>
  Number(
    (await t.database.query<{ bytes: string }>("SELECT bytes FROM orders WHERE id = $1", [orderId]))[0]
      ?.bytes,
  );

describe("orders", () => {
  it("marks a waiting sandbox order paid once, even when two operators click at the same moment", async () => {
    const orderId = await waitingOrder(t.app, alice, 10);
    const bytes = await bytesOf(orderId);
    const gb = (await get(`/admin/orders/${orderId}`)).json().data.gb;
    const before = await balanceBytes(t.app, alice);
    const [one, two] = await Promise.all([act(orderId, "mark-paid"), act(orderId, "mark-paid")]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([200, 409]);
    expect(await balanceBytes(t.app, alice)).toBe(before + bytes);
    expect(await ledgerMismatches(t.app)).toEqual([]);
    const rows = await audit(t.app, `subject=${orderId}`);
    expect(rows).toEqual([
      expect.objectContaining({
        actor: OPERATOR_EMAIL,
        action: "order.mark_paid",
        subject_type: "order",
        // The order is named by its customer's e-mail, looked up through the orders module.
        subject_label: "alice@example.com",
        before: { payment_status: "waiting", credited_gb: 0 },
        after: { payment_status: "paid", credited_gb: gb },
      }),
    ]);
    const again = await act(orderId, "mark-paid");
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("Only a waiting order can be marked paid; this one is paid.");
  });

  it("marks only sandbox orders paid (409 for a provider's), and expires only waiting orders", async () => {
    const orderId = await waitingOrder(t.app, alice, 3);
    await t.database.query(
      "UPDATE orders SET provider = 'nowpayments', provider_payment_id = 'np-1' WHERE id = $1",
      [orderId],
    );
    const refused = await act(orderId, "mark-paid");
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ success: false, message: "Only a sandbox order can be marked paid." });

    const expired = await act(orderId, "expire");
    expect(expired.statusCode, expired.body).toBe(200);
    expect(expired.json()).toMatchObject({ message: "Order expired", data: { payment_status: "expired" } });
    const twice = await act(orderId, "expire");
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe("Only a waiting order can be expired; this one is expired.");
    expect((await audit(t.app, `subject=${orderId}`)).map((row) => row.action)).toEqual(["order.expire"]);
  });

  it("filters by status, method, provider, day and e-mail", async () => {
    const bob = await customer(t.app, "bob@example.com");
    const paid = await waitingOrder(t.app, bob, 4);
    await sandboxPay(t.app, paid);
    const waiting = await waitingOrder(t.app, bob, 6);
    const today = new Date().toISOString().slice(0, 10);
    const ids = async (query: string) => {
      const response = await get(`/admin/orders?email=bob@&${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.map((order: { order_id: string }) => order.order_id);
    };
    expect(await ids("status=paid")).toEqual([paid]);
    expect(await ids("status=waiting&method=crypto&provider=sandbox")).toEqual([waiting]);
    expect(await ids("provider=stripe")).toEqual([]);
    expect(await ids(`from=${today}&to=${today}`)).toEqual([waiting, paid]);
    expect(await ids("to=2000-01-01")).toEqual([]);
    for (const bad of [
      "status=lost",
      "method=cash",
      "provider=paypal",
      "from=yesterday",
      "from=2026-02-02&to=2026-01-01",
    ]) {
      const response = await get(`/admin/orders?${bad}`);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json()).toEqual({ success: false, message: expect.any(String) });
    }
  });

  it("shows an order with its events: made, credited, a refused callback, an operator's action", async () => {
    const orderId = await waitingOrder(t.app, alice, 6);
    await t.database.query(
      "INSERT INTO payment_rejections (order_id, provider, reference, reason) VALUES ($1, 'stripe', 'cs_x', 'amount_mismatch')",
      [orderId],
    );
    await act(orderId, "mark-paid");
    const response = await get(`/admin/orders/${orderId}`);
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({
      order_id: orderId,
      email: "alice@example.com",
      provider: "sandbox",
      payment_status: "paid",
    });
    expect(data.credited_gb).toBe(data.gb);
    expect(data.events.map((event: { kind: string }) => event.kind).sort()).toEqual(
      ["created", "credited", "operator", "rejected"].sort(),
    );
    expect(data.events[0].kind).toBe("created");
  });

  it.each([
    ["GET", "/admin/orders/not-a-uuid", 400],
    ["GET", "/admin/orders/00000000-0000-4000-8000-000000000000", 404],
    ["POST", "/admin/orders/00000000-0000-4000-8000-000000000000/mark-paid", 404],
    ["POST", "/admin/orders/nope/expire", 400],
  ] as const)("%s %s → %i", async (method, url, status) => {
    const response = await t.app.inject({ method, url, headers: tokenHeaders });
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toEqual({ success: false, message: expect.any(String) });
  });
});
