import { TX_HASH_INVALID } from "@bytetoll/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand, UsageError } from "../../src/cli/admin-commands.ts";
import { createAdminService } from "../../src/modules/admin/service.ts";
import { createDealsService } from "../../src/modules/deals/service.ts";
import { orderPublisher } from "../../src/modules/orders/order-view.ts";
import { createSettlement } from "../../src/modules/payments/settlement.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { EVM_WALLET, orderFor, withdraw } from "../modules/deals/helpers.ts";
import { customer, sandboxPay } from "../modules/orders/helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

function cli(argv: string[]) {
  const deals = createDealsService({
    database: t.database,
    publish: () => undefined,
    listPricePerGbUsd: t.config.PRICE_PER_GB_USD,
  });
  return runAdminCommand(argv, {
    config: t.config,
    admin: createAdminService(t.database),
    settlement: createSettlement({
      database: t.database,
      publishOrder: orderPublisher(() => undefined),
      deals,
    }),
    deals,
  });
}

const EVM_TX = `0x${"ab12".repeat(16)}`;
const SOLANA_TX = "5".repeat(88);

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe("npm run admin -- deals…, payouts…", () => {
  it("creates, lists and cancels deals, checking the fields like the API", async () => {
    const deal = (await cli([
      "deals:create",
      "--type",
      "group_buy",
      "--title",
      "Group buy",
      "--price",
      "1",
      "--target",
      "5000",
      "--end",
      inAnHour(),
    ])) as { id: string; status: string };
    expect(deal.status).toBe("live");
    expect(await cli(["deals"])).toEqual([expect.objectContaining({ id: deal.id })]);
    await expect(
      cli([
        "deals:create",
        "--type",
        "flash_sale",
        "--title",
        "x",
        "--price",
        "0",
        "--target",
        "1",
        "--end",
        inAnHour(),
      ]),
    ).rejects.toThrow(UsageError);
    await expect(
      cli(["deals:create", "--type", "flash_sale", "--title", "x", "--price", "1", "--target", "1"]),
    ).rejects.toThrow(/deal_end_time/);
    expect(await cli(["deals:cancel", deal.id])).toMatchObject({ status: "cancelled" });
    await expect(cli(["deals:cancel", deal.id])).rejects.toThrow(/pending or live/);
  });

  it("lists a withdrawal's payout and records it sent with its transaction hash", async () => {
    const deal = (await cli([
      "deals:create",
      "--type",
      "group_buy",
      "--title",
      "G",
      "--price",
      "1",
      "--target",
      "5000",
      "--end",
      inAnHour(),
    ])) as { id: string };
    const who = await customer(t.app, "cli-depositor@example.com");
    const order = (await orderFor(t.app, who, { deal_id: deal.id, amount: 25 })).json().data;
    await sandboxPay(t.app, order.order_id);
    expect((await withdraw(t.app, who, deal.id, { wallet_address: EVM_WALLET })).statusCode).toBe(200);
    const [payout] = (await cli(["payouts", "--status", "pending"])) as { id: string; amount_usd: number }[];
    expect(payout).toMatchObject({ amount_usd: 25, kind: "withdrawal", wallet_address: EVM_WALLET });
    // The same check as the console's "Mark sent": a hash of the wallet's chain family only.
    for (const [junk, message] of [
      ["0xfeed", TX_HASH_INVALID],
      ["junk", TX_HASH_INVALID],
      [SOLANA_TX, "This wallet is on an EVM chain: its transaction hash is 0x and 64 hex digits."],
    ] as const) {
      await expect(cli(["payouts:sent", payout!.id, junk])).rejects.toMatchObject({
        statusCode: 400,
        message,
      });
    }
    expect(await cli(["payouts", "--status", "pending"])).toHaveLength(1);
    expect(await cli(["payouts:sent", payout!.id, EVM_TX])).toMatchObject({
      status: "sent",
      tx_hash: EVM_TX,
    });
    expect(await cli(["payouts", "--status", "pending"])).toEqual([]);
    await expect(cli(["payouts", "--status", "lost"])).rejects.toThrow(UsageError);
  });
});
