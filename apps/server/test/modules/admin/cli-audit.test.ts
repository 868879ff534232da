import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand } from "../../../src/cli/admin-commands.ts";
import { createAdminService } from "../../../src/modules/admin/service.ts";
import { type Customer, customer, GB } from "../orders/helpers.ts";
import { audit, type ConsoleApp, createConsoleApp, waitingOrder } from "./helpers.ts";

let t: ConsoleApp;
let alice: Customer;

beforeAll(async () => {
  t = await createConsoleApp();
  alice = await customer(t.app, "alice@example.com");
});
afterAll(() => t?.close());

const cli = (argv: string[]) =>
  runAdminCommand(argv, {
    config: t.config,
    admin: createAdminService(t.database),
    settlement: t.app.settlement,
    deals: t.app.deals,
  });

describe("npm run admin -- … in the audit log", () => {
  it("records the CLI's credits, sandbox payments, deals and cancels under the actor cli", async () => {
    await cli(["credit", "alice@example.com", "2", "support", "ticket"]);
    const orderId = await waitingOrder(t.app, alice, 3);
    await cli(["orders:pay", orderId]);
    const deal = (await cli([
      "deals:create",
      "--type",
      "group_buy",
      "--title",
      "From the CLI",
      "--price",
      "1",
      "--target",
      "100",
      "--start",
      new Date(Date.now() + 3_600_000).toISOString(),
      "--end",
      new Date(Date.now() + 7_200_000).toISOString(),
    ])) as { id: string };
    await cli(["deals:cancel", deal.id]);

    const rows = await audit(t.app, "actor=cli");
    expect(rows.map((row) => [row.action, row.subject_type, row.subject_id])).toEqual([
      ["deal.cancel", "deal", deal.id],
      ["deal.create", "deal", deal.id],
      ["order.mark_paid", "order", orderId],
      ["customer.credit", "account", alice.id],
    ]);
    expect(rows[3]).toMatchObject({
      before: { balance_bytes: 1 * GB },
      after: expect.objectContaining({ balance_bytes: 3 * GB }),
      note: "support ticket",
    });
  });
});

describe("a CLI change whose audit row cannot be written", () => {
  it("is not made: the change and its row commit together", async () => {
    const start = new Date(Date.now() + 3_600_000).toISOString();
    const end = new Date(Date.now() + 7_200_000).toISOString();
    const create = [
      "deals:create",
      "--type",
      "group_buy",
      "--title",
      "Unaudited",
      "--price",
      "1",
      "--target",
      "100",
    ];
    const kept = (await cli([...create, "--start", start, "--end", end])) as { id: string };
    const dealCount = async () =>
      Number((await t.database.query<{ n: string }>("SELECT count(*) AS n FROM deals"))[0]?.n);
    const before = await dealCount();
    await t.database.query(`
      CREATE FUNCTION refuse_audit_rows() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the audit log is unavailable'; END $$`);
    await t.database.query(
      "CREATE TRIGGER refuse_audit_rows BEFORE INSERT ON admin_audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit_rows()",
    );
    try {
      await expect(cli([...create, "--start", start, "--end", end])).rejects.toThrow();
      await expect(cli(["deals:cancel", kept.id])).rejects.toThrow();
    } finally {
      await t.database.query("DROP TRIGGER refuse_audit_rows ON admin_audit_log");
      await t.database.query("DROP FUNCTION refuse_audit_rows()");
    }
    expect(await dealCount()).toBe(before);
    const [row] = await t.database.query<{ status: string }>(
      "SELECT status FROM deals WHERE id = (SELECT max(id) FROM deals)",
    );
    expect(row?.status).toBe("pending");
  });
});
