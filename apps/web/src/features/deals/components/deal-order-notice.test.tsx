import { encodeDealId } from "@bytetoll/contracts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { dealFixture } from "../../../test/deal-fixture.ts";
import { orderFixture } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";

vi.mock("socket.io-client", () => import("../../../test/fake-socket.ts"));

const di = encodeDealId(7);
const deal = dealFixture({ id: di, deal_title: "Cyber Monday mobile data", deal_price: 0.45 });

/** What a login link asked for from a deal's Buy leaves behind: an order for the deal, no network yet. */
const dealOrder = orderFixture({
  order_id: "ord_deal_signin",
  deal_id: di,
  quantity: 1,
  amount_usd: 450,
  gb: 1000,
  network_type: null,
  pay_address: null,
  qr_code: null,
  price_amount: null,
  payment_token: null,
});

describe("checkout reached from a deal's Buy", () => {
  it("names the deal and its price per GB after signing in through the login link", async () => {
    stubApi({
      "POST /auth/magic/verify": ok({
        token: "deal-jwt",
        exp: Math.floor(Date.now() / 1000) + 3600,
        email: TEST_USER.email,
        id: TEST_USER.id,
        order_id: dealOrder.order_id,
      }),
      "GET /auth/session": ok(TEST_USER),
      [`GET /transactions/${dealOrder.order_id}`]: ok(dealOrder),
      [`GET /deals/${di}`]: ok(deal),
    });
    renderRoute("/magic/auth?magic_credential=link-token");
    const summary = await screen.findByRole("region", { name: "Deal" });
    expect(summary).toHaveTextContent("Flash sale");
    expect(within(summary).getByText("Cyber Monday mobile data")).toBeInTheDocument();
    expect(within(summary).getByText("$0.45/GB")).toBeInTheDocument();
    expect(screen.getByTestId("crypto-checkout-form")).toBeInTheDocument();
  });

  it("names the deal on a signed-in customer's checkout link too", async () => {
    signInWithToken();
    stubApi({ "GET /auth/session": ok(TEST_USER), [`GET /deals/${di}`]: ok(deal) });
    renderRoute(`/checkout?di=${di}&usd=450`);
    const summary = await screen.findByRole("region", { name: "Deal" });
    expect(summary).toHaveTextContent("Cyber Monday mobile data");
    expect(summary).toHaveTextContent("$0.45/GB");
    expect(screen.getByTestId("checkout-total")).toHaveTextContent("$450");
  });
});
