import { encodeDealId } from "@bytetoll/contracts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { historyOf, orderFixture, pageOf } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";

vi.mock("socket.io-client", () => import("../../../test/fake-socket.ts"));

const NOTE = "Sale sold out — credited at list price: 3.33 GB at 3 USD per GB.";
/** A 10 USD flash-sale order paid after its stock went to others: 3.33 GB at the list price. */
const soldOut = orderFixture({
  order_id: "ord_sold_out",
  deal_id: encodeDealId(7),
  quantity: 1,
  amount_usd: 10,
  gb: 3.33,
  payment_status: "paid",
  paid_at: "2026-11-21T15:00:00Z",
  note: NOTE,
});

describe("a flash-sale order credited at the list price", () => {
  it("says on its order page what was credited and why", async () => {
    signInWithToken("sold-out-jwt-1");
    stubApi({ "GET /auth/session": ok(TEST_USER), "GET /transactions/ord_sold_out": ok(soldOut) });
    renderRoute("/checkout?order_id=ord_sold_out");
    expect(await screen.findByTestId("sold-out-note")).toHaveTextContent(NOTE);
    expect(screen.getByText(/3\.33 GB added to your balance/)).toBeInTheDocument();
  });

  it("says so in the transaction history, beside the GB credited", async () => {
    signInWithToken("sold-out-jwt-2");
    stubApi({
      "GET /auth/session": ok(TEST_USER),
      "GET /account/status": ok({ balance_gb: 1, balance_bytes: 1e9 }),
      "GET /transactions": Response.json(pageOf([])),
      "GET /history": Response.json(historyOf([soldOut, orderFixture({ order_id: "plain" })])),
    });
    renderRoute("/");
    const history = await screen.findByRole("region", { name: "Transaction History" });
    const rows = await within(history).findAllByTestId("history-row");
    expect(within(rows[0]!).getAllByRole("cell")[2]).toHaveTextContent(
      "3.33 GBSale sold out — credited at list price",
    );
    expect(rows[1]).not.toHaveTextContent("list price");
  });
});
