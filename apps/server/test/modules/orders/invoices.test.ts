import type { TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/types.ts";
import {
  createTestApp,
  createTwoInstances,
  type TestApp,
  type TwoInstances,
} from "../../helpers/test-app.ts";
import { type Customer, createOrder, customer, customerWithoutEmail, sandboxPay } from "./helpers.ts";

const OPERATOR = {
  OPERATOR_NAME: "Proxy Seller GmbH",
  OPERATOR_ADDRESS: "Hauptstraße 1\\n10115 Berlin",
  OPERATOR_VAT_ID: "DE123456789",
};
const year = new Date().getUTCFullYear();
const number = (prefix: string, sequence: number) => `${prefix}-${year}-${String(sequence).padStart(6, "0")}`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(OPERATOR);
});
afterAll(() => t?.close());

const putBilling = (app: App, who: Customer, payload: Record<string, unknown>) =>
  app.inject({ method: "PUT", url: "/account/billing", headers: who.headers, payload });

async function invoices(app: App, who: Customer) {
  const response = await app.inject({ method: "GET", url: "/account/invoices", headers: who.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Array<{
    number: string;
    kind: string;
    order_id: string;
    amount_usd: number;
  }>;
}

async function paidOrder(app: App, who: Customer, amount = 3) {
  const order = await createOrder(app, who, { amount, network_type: "solana" });
  const paid = await sandboxPay(app, order.order_id);
  expect(paid.statusCode, paid.body).toBe(200);
  return order.order_id;
}

const page = (app: App, who: Customer, documentNumber: string) =>
  app.inject({ method: "GET", url: `/account/invoices/${documentNumber}`, headers: who.headers });

describe("billing details", () => {
  it("are kept on the profile, and a bad field is refused by name with nothing changed", async () => {
    const buyer = await customer(t.app, "billing-details@example.com");
    const empty = await t.app.inject({ method: "GET", url: "/account/billing", headers: buyer.headers });
    expect(empty.json().data).toEqual({ company: null, address: null, country: null, vat_id: null });
    const saved = await putBilling(t.app, buyer, { company: "Scrapers Ltd", country: "gb", vat_id: "GB999" });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toEqual({
      company: "Scrapers Ltd",
      address: null,
      country: "GB",
      vat_id: "GB999",
    });
    for (const [payload, field] of [
      [{ country: "XX" }, "country"],
      [{ vat_id: "V".repeat(51) }, "vat_id"],
      [{ iban: "DE00" }, "iban"],
    ] as const) {
      const refused = await putBilling(t.app, buyer, payload);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain(field);
    }
    const kept = await t.app.inject({ method: "GET", url: "/account/billing", headers: buyer.headers });
    expect(kept.json().data.company).toBe("Scrapers Ltd");
  });
});

describe("invoices and credit notes", () => {
  it("number each paid order once, show the operator and the customer as they were when paid, and credit a refund", async () => {
    const buyer = await customer(t.app, "invoiced@example.com");
    await putBilling(t.app, buyer, {
      company: "Scrapers Ltd",
      address: "1 Main St\nLondon",
      vat_id: "GB999",
    });
    const before = (
      await t.database.query<{ n: string }>("SELECT count(*) AS n FROM invoices WHERE kind = 'invoice'")
    )[0]?.n;
    const first = await paidOrder(t.app, buyer);
    // A replayed confirmation changes nothing: still one invoice for the order.
    await sandboxPay(t.app, first);
    await putBilling(t.app, buyer, { company: "Renamed Ltd" });
    const second = await paidOrder(t.app, buyer, 5);
    const listed = await invoices(t.app, buyer);
    const firstNumber = number("INV", Number(before) + 1);
    expect(listed).toEqual([
      expect.objectContaining({ number: number("INV", Number(before) + 2), order_id: second, amount_usd: 5 }),
      expect.objectContaining({ number: firstNumber, kind: "invoice", order_id: first, amount_usd: 3 }),
    ]);

    const html = await page(t.app, buyer, firstNumber);
    expect(html.statusCode, html.body).toBe(200);
    expect(html.headers["content-type"]).toMatch(/^text\/html/);
    for (const text of [
      "Invoice " + firstNumber,
      "Proxy Seller GmbH",
      "10115 Berlin",
      "VAT ID: DE123456789",
      "Scrapers Ltd",
      "London",
      "VAT ID: GB999",
      "$3.00",
    ]) {
      expect(html.body).toContain(text);
    }
    expect(html.body).not.toContain("Renamed Ltd");
    expect((await page(t.app, buyer, number("INV", Number(before) + 2))).body).toContain("Renamed Ltd");

    // A refund of the whole order issues a credit note with its own number, naming the invoice.
    const refunded = await t.app.settlement.settle(first, { status: "refunded" });
    expect(refunded?.payment_status).toBe("refunded");
    const notes = (await invoices(t.app, buyer)).filter((document) => document.kind === "credit_note");
    expect(notes).toHaveLength(1);
    expect(notes[0]?.number).toMatch(new RegExp(`^CN-${year}-\\d{6}$`));
    const note = await page(t.app, buyer, notes[0]?.number as string);
    expect(note.body).toContain(`Cancels invoice ${firstNumber}`);
    expect(note.body).toContain("−$3.00");

    // Nobody else reads them.
    const stranger = await customer(t.app, "not-invoiced@example.com");
    expect((await page(t.app, stranger, firstNumber)).statusCode).toBe(404);
    expect(await invoices(t.app, stranger)).toEqual([]);
  });
});

// Payments race for real only on PostgreSQL (PGlite runs one statement at a time).
const postgres = process.env.DATABASE_URL;
const shared: Record<string, string> = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {};
const RACED = 50;

describe("invoice numbers under racing payments on two instances", () => {
  let instances: TwoInstances | undefined;
  let database: TestDatabase;
  afterAll(async () => {
    await instances?.close();
  });

  it.skipIf(!postgres)("are 50 consecutive numbers for 50 payments, none twice, none skipped", async () => {
    instances = await createTwoInstances(postgres as string, "bytetoll_invoices", 12, {
      ...shared,
      ...OPERATOR,
    });
    ({ database } = instances);
    const { one, two } = instances;
    const buyers = await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        customerWithoutEmail(database, one.config.JWT_SECRET, `race-${i}@example.com`),
      ),
    );
    const orders = await Promise.all(
      Array.from({ length: RACED }, (_, i) =>
        createOrder(one.app, buyers[i % buyers.length] as Customer, {
          amount: 3 + (i % 4),
          network_type: "solana",
        }),
      ),
    );
    // Every order paid twice at once, once on each instance: the replay must not take a number.
    const answers = await Promise.all(
      orders.flatMap((order, i) => [
        sandboxPay(i % 2 ? one.app : two.app, order.order_id),
        sandboxPay(i % 2 ? two.app : one.app, order.order_id),
      ]),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const rows = await database.query<{ sequence: number; number: string; order_id: string }>(
      "SELECT sequence, number, order_id FROM invoices WHERE kind = 'invoice' ORDER BY sequence",
    );
    expect(rows.map((row) => row.sequence)).toEqual(Array.from({ length: RACED }, (_, i) => i + 1));
    expect(rows.map((row) => row.number)).toEqual(rows.map((row) => number("INV", row.sequence)));
    expect(new Set(rows.map((row) => row.order_id))).toEqual(new Set(orders.map((order) => order.order_id)));
  });
});
