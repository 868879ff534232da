import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { balanceBytes, type Customer, customer } from "../orders/helpers.ts";
import { audit, type ConsoleApp, createConsoleApp, newDeal, pendingPayout, waitingOrder } from "./helpers.ts";

let t: ConsoleApp;
let alice: Customer;

beforeAll(async () => {
  t = await createConsoleApp();
  alice = await customer(t.app, "audit-tx-alice@example.com");
});
afterAll(() => t?.close());
afterEach(() => t.database.query("DROP TRIGGER IF EXISTS audit_write_fails ON admin_audit_log"));

/** The database refuses the next audit rows of `action`, as a full disk or a lost connection
 * would at that moment: the action they record must not happen without them. */
async function auditWritesFail(action: string) {
  await t.database.query(`
    CREATE OR REPLACE FUNCTION audit_write_fails() RETURNS trigger AS $$
    BEGIN
      IF NEW.action = TG_ARGV[0] THEN RAISE EXCEPTION 'audit write failed'; END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql`);
  await t.database.query(
    `CREATE TRIGGER audit_write_fails BEFORE INSERT ON admin_audit_log
     FOR EACH ROW EXECUTE FUNCTION audit_write_fails('${action}')`,
  );
}

const post = (url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method: "POST", url, headers: t.operator.headers, ...(payload ? { payload } : {}) });

const rowsOf = async (action: string, subjectId: string) =>
  (await audit(t.app, "per_page=100")).filter((row) => row.action === action && row.subject_id === subjectId);

const orderStatus = async (id: string) =>
  (
    await t.database.query<{ payment_status: string }>("SELECT payment_status FROM orders WHERE id = $1", [
      id,
    ])
  )[0]?.payment_status;
const payoutStatus = async (id: string) =>
  (await t.database.query<{ status: string }>("SELECT status FROM payouts WHERE id = $1", [id]))[0]?.status;
const dealCount = async () =>
  Number((await t.database.query<{ n: string }>("SELECT count(*) AS n FROM deals"))[0]?.n);

describe("an operator's action and its audit row commit together", () => {
  it("mark paid: without its audit row the order stays waiting and nothing is credited; with it, one row", async () => {
    const orderId = await waitingOrder(t.app, alice, 10);
    const before = await balanceBytes(t.app, alice);

    await auditWritesFail("order.mark_paid");
    expect((await post(`/admin/orders/${orderId}/mark-paid`)).statusCode).toBe(500);
    expect(await orderStatus(orderId)).toBe("waiting");
    expect(await balanceBytes(t.app, alice)).toBe(before);

    await t.database.query("DROP TRIGGER audit_write_fails ON admin_audit_log");
    expect((await post(`/admin/orders/${orderId}/mark-paid`)).statusCode).toBe(200);
    expect(await balanceBytes(t.app, alice)).toBeGreaterThan(before);
    // A second click is refused and records nothing.
    expect((await post(`/admin/orders/${orderId}/mark-paid`)).statusCode).toBe(409);
    expect(await rowsOf("order.mark_paid", orderId)).toHaveLength(1);
  });

  it("deal create and cancel: no deal appears or ends without its row; a refused cancel writes none", async () => {
    const count = await dealCount();
    await auditWritesFail("deal.create");
    const refused = await post("/admin/deals", {
      deal_type: "group_buy",
      deal_title: "Unrecorded",
      deal_price: 1,
      deal_target_gb: 500,
      deal_start_time: new Date(Date.now() + 3_600_000).toISOString(),
      deal_end_time: new Date(Date.now() + 7_200_000).toISOString(),
    });
    expect(refused.statusCode).toBe(500);
    expect(await dealCount()).toBe(count);

    await t.database.query("DROP TRIGGER audit_write_fails ON admin_audit_log");
    const deal = await newDeal(t.app);
    expect(await rowsOf("deal.create", deal.id)).toHaveLength(1);

    await auditWritesFail("deal.cancel");
    expect((await post(`/admin/deals/${deal.id}/cancel`)).statusCode).toBe(500);
    const listed = (await t.app.inject({ method: "GET", url: "/admin/deals", headers: t.operator.headers }))
      .json()
      .data.find((row: { id: string }) => row.id === deal.id);
    expect(listed.status).toBe("pending");

    await t.database.query("DROP TRIGGER audit_write_fails ON admin_audit_log");
    expect((await post(`/admin/deals/${deal.id}/cancel`)).statusCode).toBe(200);
    expect((await post(`/admin/deals/${deal.id}/cancel`)).statusCode).toBe(409);
    expect(await rowsOf("deal.cancel", deal.id)).toHaveLength(1);
  });

  it("payouts: a payout stays pending without its row; sent or failed once, each with one row", async () => {
    const sentId = await pendingPayout(t.app, alice);
    await auditWritesFail("payout.sent");
    expect(
      (
        await post(`/admin/payouts/${sentId}/sent`, {
          tx_hash: "0x9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a",
        })
      ).statusCode,
    ).toBe(500);
    expect(await payoutStatus(sentId)).toBe("pending");
    await t.database.query("DROP TRIGGER audit_write_fails ON admin_audit_log");
    expect(
      (
        await post(`/admin/payouts/${sentId}/sent`, {
          tx_hash: "0x9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a",
        })
      ).statusCode,
    ).toBe(200);
    expect((await post(`/admin/payouts/${sentId}/failed`)).statusCode).toBe(409);
    expect(await rowsOf("payout.sent", sentId)).toHaveLength(1);
    expect(await rowsOf("payout.failed", sentId)).toHaveLength(0);

    const failedId = await pendingPayout(t.app, alice);
    await auditWritesFail("payout.failed");
    expect((await post(`/admin/payouts/${failedId}/failed`)).statusCode).toBe(500);
    expect(await payoutStatus(failedId)).toBe("pending");
    await t.database.query("DROP TRIGGER audit_write_fails ON admin_audit_log");
    expect((await post(`/admin/payouts/${failedId}/failed`)).statusCode).toBe(200);
    expect(await rowsOf("payout.failed", failedId)).toHaveLength(1);
  });
});
