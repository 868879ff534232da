import { DEAL_ORDER_UNAVAILABLE, DEAL_UNAVAILABLE, encodeDealId } from "@bytetoll/contracts";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fail, ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { dealFixture } from "../../../test/deal-fixture.ts";
import { orderFixture } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";

const di = encodeDealId(7);

function checkoutApi(routes: Parameters<typeof stubApi>[0]) {
  signInWithToken();
  return stubApi({ "GET /auth/session": ok(TEST_USER), ...routes });
}

describe("checkout for a deal", () => {
  it("offers payment at the link's total while the deal is live", async () => {
    checkoutApi({ [`GET /deals/${di}`]: ok(dealFixture({ id: di })) });
    renderRoute(`/checkout?di=${di}&usd=500`);
    await screen.findByTestId("crypto-checkout-form");
    expect(screen.getByTestId("checkout-total")).toHaveTextContent("$500");
  });

  it.each([
    ["cancelled", ok(dealFixture({ id: di, status: "cancelled" }))],
    ["expired", ok(dealFixture({ id: di, status: "expired" }))],
    ["unknown", fail(404, DEAL_UNAVAILABLE)],
  ])("says a %s deal is no longer available", async (_, reply) => {
    checkoutApi({ [`GET /deals/${di}`]: reply });
    renderRoute(`/checkout?di=${di}&usd=500`);
    expect(await screen.findByText(DEAL_UNAVAILABLE)).toBeInTheDocument();
    expect(screen.queryByTestId("crypto-checkout-form")).not.toBeInTheDocument();
  });

  it("says so on an unpaid order whose deal is gone", async () => {
    checkoutApi({
      "GET /transactions/ord_deal": ok(orderFixture({ order_id: "ord_deal", deal_id: di })),
      [`GET /deals/${di}`]: ok(dealFixture({ id: di, status: "cancelled" })),
    });
    renderRoute("/checkout?order_id=ord_deal");
    expect(await screen.findByText(DEAL_ORDER_UNAVAILABLE)).toBeInTheDocument();
  });

  it("says a paid deposit is held until the group buy reaches its target", async () => {
    checkoutApi({
      "GET /transactions/ord_dep": ok(
        orderFixture({ order_id: "ord_dep", deal_id: di, quantity: null, payment_status: "paid", gb: 100 }),
      ),
    });
    renderRoute("/checkout?order_id=ord_dep");
    expect(
      await screen.findByText(
        "Deposit received. It is held until the group buy reaches its target, then buys 100 GB.",
      ),
    ).toBeInTheDocument();
  });
});
