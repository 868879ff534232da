import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand, UsageError } from "../../src/cli/admin-commands.ts";
import { createAdminService } from "../../src/modules/admin/service.ts";
import { createDealsService } from "../../src/modules/deals/service.ts";
import { orderPublisher } from "../../src/modules/orders/order-view.ts";
import type { Order } from "../../src/modules/orders/schemas.ts";
import { createSettlement } from "../../src/modules/payments/settlement.ts";
import { createTestApp, type TestApp, testConfig } from "../helpers/test-app.ts";
import { balanceBytes, type Customer, createOrder, customer, GB } from "../modules/orders/helpers.ts";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../../", import.meta.url));

let t: TestApp;
let alice: Customer;
const published: Order[] = [];

beforeAll(async () => {
  t = await createTestApp();
  alice = await customer(t.app, "alice@example.com");
});
afterAll(() => t?.close());

function cli(argv: string[], config = t.config) {
  return runAdminCommand(argv, {
    config,
    admin: createAdminService(t.database),
    settlement: createSettlement({
      database: t.database,
      publishOrder: orderPublisher((order) => published.push(order)),
    }),
    deals: createDealsService({
      database: t.database,
      publish: () => undefined,
      listPricePerGbUsd: t.config.PRICE_PER_GB_USD,
    }),
  });
}

describe("npm run admin -- …", () => {
  it("credits and debits an account with a note", async () => {
    const result = await cli(["credit", "alice@example.com", "4", "support", "ticket", "7"]);
    expect(result).toMatchObject({
      account: { email: "alice@example.com", balance_gb: 5 },
      delta_bytes: 4 * GB,
    });
    await cli(["credit", "alice@example.com", "-1"]);
    expect(await balanceBytes(t.app, alice)).toBe(4 * GB);
    const notes = await t.database.query<{ note: string }>(
      "SELECT note FROM ledger_entries WHERE user_id = $1 AND kind = 'adjustment' ORDER BY id",
      [alice.id],
    );
    expect(notes.map((n) => n.note)).toEqual(["support ticket 7", "Operator adjustment (CLI)"]);
  });

  it("lists accounts and orders", async () => {
    const order = await createOrder(t.app, alice, { amount: 3, network_type: "solana" });
    expect(await cli(["accounts", "--email", "alice"])).toMatchObject({
      total: 1,
      data: [{ email: "alice@example.com" }],
    });
    expect(await cli(["orders", "--email", "alice@example.com", "--status", "waiting"])).toMatchObject({
      total: 1,
      data: [{ order_id: order.order_id }],
    });
  });

  it("marks a sandbox order paid, credits it once and publishes the change", async () => {
    const order = await createOrder(t.app, alice, { amount: 6, network_type: "base" });
    const before = await balanceBytes(t.app, alice);
    const paid = (await cli(["orders:pay", order.order_id])) as Order;
    expect(paid.payment_status).toBe("paid");
    await cli(["orders:pay", order.order_id]);
    expect(await balanceBytes(t.app, alice)).toBe(before + 2 * GB);
    expect(published.filter((o) => o.order_id === order.order_id).map((o) => o.payment_status)).toEqual([
      "paid",
    ]);
  });

  it.each([
    [[], ""],
    [["nope"], "unknown command: nope"],
    [["credit", "alice@example.com"], "credit needs <email> <gb> [note]"],
    [["credit", "alice@example.com", "lots"], "gb must be a number"],
    [["credit", "alice@example.com", "0"], "gb must be non-zero"],
    [["orders", "--status", "gone"], "--status must be one of"],
    [["orders:pay"], "orders:pay needs <orderId>"],
    [["orders:pay", "x", "-3"], "amount_usd must be greater than 0"],
  ])("explains bad usage: %j", async (argv, message) => {
    const failure = cli(argv);
    await expect(failure).rejects.toBeInstanceOf(UsageError);
    await expect(failure).rejects.toThrow(message);
  });

  it("refuses unknown accounts and, in production, sandbox payments", async () => {
    await expect(cli(["credit", "nobody@example.com", "1"])).rejects.toThrow("Account not found");
    const order = await createOrder(t.app, alice, { amount: 3, network_type: "base" });
    await expect(cli(["orders:pay", order.order_id], testConfig({ NODE_ENV: "production" }))).rejects.toThrow(
      "disabled in production",
    );
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "runs as a process on the server's database (needs DATABASE_URL)",
    async () => {
      const env = {
        ...process.env,
        DATABASE_URL: t.database.url,
        JWT_SECRET: t.config.JWT_SECRET,
        LOG_LEVEL: "silent",
      };
      const tsx = `${root}node_modules/.bin/tsx`;
      const ok = await run(
        tsx,
        ["apps/server/src/cli/admin.ts", "credit", "alice@example.com", "1.5", "cli"],
        {
          cwd: root,
          env,
        },
      );
      expect(JSON.parse(ok.stdout)).toMatchObject({
        account: { email: "alice@example.com" },
        delta_bytes: 1.5 * GB,
      });
      const bad = await run(tsx, ["apps/server/src/cli/admin.ts", "frobnicate"], { cwd: root, env }).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(bad).toMatchObject({ code: 2 });
      expect((bad as { stderr: string }).stderr).toContain("Usage: npm run admin");
    },
    60_000,
  );
});
