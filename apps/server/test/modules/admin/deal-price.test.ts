import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand, UsageError } from "../../../src/cli/admin-commands.ts";
import { createAdminService } from "../../../src/modules/admin/service.ts";
import { createDealsService } from "../../../src/modules/deals/service.ts";
import { orderPublisher } from "../../../src/modules/orders/order-view.ts";
import { createSettlement } from "../../../src/modules/payments/settlement.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

const ADMIN_TOKEN = "admin-token-deal-price-0123456789";
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const REFUSAL = "Deal price must be between $0.01 and the list price $3.00 per GB";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_TOKEN, PRICE_PER_GB_USD: "3" });
});
afterAll(() => t?.close());

const window = () => ({
  deal_start_time: new Date(Date.now() + 3_600_000).toISOString(),
  deal_end_time: new Date(Date.now() + 7_200_000).toISOString(),
});

function createDeal(dealType: string, price: unknown) {
  return t.app.inject({
    method: "POST",
    url: "/admin/deals",
    headers: admin,
    payload: {
      deal_type: dealType,
      deal_title: "Priced",
      deal_price: price,
      deal_target_gb: 5000,
      ...window(),
    },
  });
}

const dealCount = async () =>
  Number((await t.database.query<{ n: string }>("SELECT count(*) AS n FROM deals"))[0]?.n);

describe("a deal's price is a discount: from a cent up to the list price per GB", () => {
  it.each([
    ["a thousandth of a cent", 1e-11],
    ["below a cent", 0.0049],
    ["zero", 0],
    ["negative", -1],
    ["above the list price", 3.01],
    ["far above the list price", 999],
  ])("POST /admin/deals refuses a price %s with 400 and a message, creating nothing", async (_, price) => {
    const before = await dealCount();
    for (const dealType of ["flash_sale", "group_buy"]) {
      const response = await createDeal(dealType, price);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().success).toBe(false);
      expect(response.json().message).toMatch(
        /^(deal_price: )?Deal price must be (between|at least) \$0\.01/,
      );
      if (price >= 0.01) expect(response.json().message).toBe(REFUSAL);
    }
    expect(await dealCount()).toBe(before);
  });

  it("accepts a cent and the list price itself", async () => {
    for (const price of [0.01, 3]) {
      const response = await createDeal("group_buy", price);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data.deal_price).toBe(price);
    }
  });

  it("PATCH /admin/deals/{id} holds an edited price to the same rule", async () => {
    const created = (await createDeal("flash_sale", 1)).json().data;
    const patch = (price: number) =>
      t.app.inject({
        method: "PATCH",
        url: `/admin/deals/${created.id}`,
        headers: admin,
        payload: { deal_price: price },
      });
    const above = await patch(4);
    expect(above.statusCode, above.body).toBe(400);
    expect(above.json()).toEqual({ success: false, message: REFUSAL });
    expect((await patch(2.5)).json().data.deal_price).toBe(2.5);
  });

  it("npm run admin -- deals:create refuses the same prices with the same message", async () => {
    const deals = createDealsService({
      database: t.database,
      publish: () => undefined,
      listPricePerGbUsd: t.config.PRICE_PER_GB_USD,
    });
    const context = {
      config: t.config,
      admin: createAdminService(t.database),
      settlement: createSettlement({
        database: t.database,
        publishOrder: orderPublisher(() => undefined),
        deals,
      }),
      deals,
    };
    const create = (price: string) =>
      runAdminCommand(
        ["deals:create", "--type", "group_buy", "--title", "CLI", "--price", price, "--target", "10"].concat([
          "--end",
          window().deal_end_time,
        ]),
        context,
      );
    const before = await dealCount();
    await expect(create("3.5")).rejects.toThrow(new UsageError(`--price: ${REFUSAL}`));
    await expect(create("0.00000000001")).rejects.toThrow(UsageError);
    expect(await dealCount()).toBe(before);
    await expect(create("2.99")).resolves.toMatchObject({ deal_price: 2.99 });
  });
});
