import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentReading } from "../../../src/lib/payment-provider.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { balanceBytes, createOrder, customer, getOrder, ledgerMismatches } from "../orders/helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe("the settlement has a case for every reading, and credits only a payment", () => {
  it("stops on a reading it has no case for, instead of crediting it as paid", async () => {
    const buyer = await customer(t.app, "unknown-reading@example.com");
    const before = await balanceBytes(t.app, buyer);
    const order = await createOrder(t.app, buyer, { amount: 30, method: "crypto", network_type: "solana" });
    // A provider status a future mapping forgets to translate.
    const reading = { status: "disputed" } as unknown as PaymentReading;
    await expect(t.app.settlement.settle(order.order_id, reading)).rejects.toThrow(/no case for "disputed"/);
    expect((await getOrder(t.app, buyer, order.order_id)).payment_status).toBe("waiting");
    expect(await balanceBytes(t.app, buyer)).toBe(before);
    expect(await ledgerMismatches(t.app)).toEqual([]);
  });
});
