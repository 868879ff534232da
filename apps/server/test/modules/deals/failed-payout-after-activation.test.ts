import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { balanceBytes, customer, GB, sandboxPay } from "../orders/helpers.ts";
import {
  ADMIN_TOKEN,
  admin,
  createDeal,
  EVM_WALLET,
  getDeal,
  orderFor,
  payouts,
  totalDeposit,
  withdraw,
} from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_TOKEN });
});
afterAll(() => t?.close());

const SOLANA_WALLET = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";

describe("a withdrawal whose payout failed after its group buy activated", () => {
  it("is still owed and can be withdrawn again, once; deposits that bought data cannot", async () => {
    const deal = await createDeal(t.app, { deal_type: "group_buy", deal_price: 1, deal_target_gb: 100 });
    const [leaver, stayer] = await Promise.all([
      customer(t.app, "leaver@example.com"),
      customer(t.app, "stayer@example.com"),
    ]);
    const deposit = async (who: typeof leaver, amount: number) => {
      const response = await orderFor(t.app, who, { deal_id: deal.id, amount });
      expect(response.statusCode, response.body).toBe(201);
      expect((await sandboxPay(t.app, response.json().data.order_id)).statusCode).toBe(200);
    };
    const leaverStart = await balanceBytes(t.app, leaver);
    await deposit(leaver, 50);
    expect((await withdraw(t.app, leaver, deal.id, { wallet_address: EVM_WALLET })).statusCode).toBe(200);
    const first = (await payouts(t.app)).find((payout) => payout.user_id === leaver.id);
    expect(first).toMatchObject({ kind: "withdrawal", amount_usd: 50, status: "pending" });

    await deposit(stayer, 100);
    expect((await getDeal(t.app, deal.id)).status).toBe("activated");

    const failed = await t.app.inject({
      method: "POST",
      url: `/admin/payouts/${first!.id}/failed`,
      headers: admin,
    });
    expect(failed.statusCode, failed.body).toBe(200);
    // Owed again: shown, and withdrawable to another wallet.
    expect(await totalDeposit(t.app, leaver, deal.id)).toBe(50);
    const again = await withdraw(t.app, leaver, deal.id, { wallet_address: SOLANA_WALLET });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().message).toBe(`Your deposit of $50.00 will be sent to ${SOLANA_WALLET}.`);
    const second = (await payouts(t.app)).filter(
      (payout) => payout.user_id === leaver.id && payout.id !== first!.id,
    );
    expect(second).toEqual([
      expect.objectContaining({
        kind: "refund",
        amount_usd: 50,
        status: "pending",
        wallet_address: SOLANA_WALLET,
      }),
    ]);
    expect(await totalDeposit(t.app, leaver, deal.id)).toBe(0);

    // Paid out once: a second withdrawal has nothing to take, and the leaver got no data.
    const twice = await withdraw(t.app, leaver, deal.id, { wallet_address: SOLANA_WALLET });
    expect(twice.statusCode).toBe(409);
    expect(await balanceBytes(t.app, leaver)).toBe(leaverStart);
    // The stayer's deposit bought data: not withdrawable.
    const stayerStart = await balanceBytes(t.app, stayer);
    const refused = await withdraw(t.app, stayer, deal.id, { wallet_address: EVM_WALLET });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe("This group buy is activated: its deposits have bought data.");
    expect(await balanceBytes(t.app, stayer)).toBe(stayerStart);
    expect(stayerStart % GB).toBe(0);
    // The deal still counts only the credited deposit.
    expect((await getDeal(t.app, deal.id)).deal_reserved_gb).toBe(100);
  });
});
