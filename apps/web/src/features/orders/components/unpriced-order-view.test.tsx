import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fail, ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { orderFixture } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import type { Order } from "../api/order.ts";
import { leavePage } from "../leave-page.ts";

vi.mock("../leave-page.ts", () => ({ leavePage: vi.fn() }));
vi.mock("socket.io-client", () => import("../../../test/fake-socket.ts"));

const ACK = "I understand that sending tokens using another blockchain network will result in loss of funds.";

/** What /magic/check with purchaseAmount 30 leaves behind: waiting, no network, nothing to pay yet. */
const unpriced = orderFixture({
  amount_usd: 30,
  gb: 10,
  network_type: null,
  pay_address: null,
  qr_code: null,
  price_amount: null,
  payment_token: null,
});

let tokenCount = 0;
beforeEach(() => {
  vi.mocked(leavePage).mockClear();
  tokenCount += 1;
  signInWithToken(`unpriced-jwt-${tokenCount}`);
});

function api(overrides: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /transactions/ord_test_1": ok(unpriced),
    ...overrides,
  });
}

describe("an order made at sign-in, before its payment method is chosen", () => {
  it("shows the payment form for its amount, and after choosing Solana the pay address", async () => {
    const priced: Order = orderFixture({ amount_usd: 30, gb: 10, price_amount: 30 });
    const stub = api({ "POST /transactions/ord_test_1/payment": ok(priced) });
    renderRoute("/checkout?order_id=ord_test_1");

    const form = await screen.findByTestId("crypto-checkout-form");
    expect(screen.getByTestId("checkout-total")).toHaveTextContent("$30");
    // The amount is the order's: nothing to type.
    expect(screen.queryByLabelText("Amount (USD)")).not.toBeInTheDocument();
    expect(screen.queryByTestId("order-status-view")).not.toBeInTheDocument();
    expect(form).toHaveTextContent("Pay by card");

    const pay = screen.getByRole("button", { name: "Pay" });
    expect(pay).toBeDisabled();
    await userEvent.selectOptions(screen.getByLabelText("USDC network"), "solana");
    expect(pay).toBeDisabled();
    await userEvent.click(screen.getByLabelText(ACK));
    await userEvent.click(pay);

    expect(await screen.findByTestId("pay-address")).toHaveTextContent(priced.pay_address ?? "");
    expect(screen.getByTestId("order-amount")).toHaveTextContent("30.00 USDC");
    expect(screen.queryByTestId("crypto-checkout-form")).not.toBeInTheDocument();
    expect(stub.callsTo("POST", "/transactions/ord_test_1/payment").map((call) => call.body)).toEqual([
      { method: "crypto", network_type: "solana" },
    ]);
    // No second order: the one from sign-in is paid.
    expect(stub.callsTo("POST", "/transactions")).toHaveLength(0);
  });

  it("chooses card, then opens the hosted card page of the same order", async () => {
    const stub = api({
      "POST /transactions/ord_test_1/payment": ok(
        orderFixture({ ...unpriced, method: "card", payment_token: "Card" }),
      ),
      "POST /stripe/sessions": ok({ redirect_url: "https://pay.example.test/c/ord_test_1" }),
    });
    renderRoute("/checkout?order_id=ord_test_1");
    await userEvent.click(await screen.findByRole("button", { name: "Pay by card" }));

    await waitFor(() => expect(leavePage).toHaveBeenCalledWith("https://pay.example.test/c/ord_test_1"));
    expect(stub.callsTo("POST", "/transactions/ord_test_1/payment")[0]?.body).toEqual({ method: "card" });
    expect(stub.callsTo("POST", "/stripe/sessions")[0]?.body).toEqual({ order_id: "ord_test_1" });
  });

  it("shows the server's refusal and stays on the form", async () => {
    api({
      "POST /transactions/ord_test_1/payment": fail(409, "This order already has a payment method."),
    });
    renderRoute("/checkout?order_id=ord_test_1");
    await userEvent.selectOptions(await screen.findByLabelText("USDC network"), "base");
    await userEvent.click(screen.getByLabelText(ACK));
    await userEvent.click(screen.getByRole("button", { name: "Pay" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This order already has a payment method.");
    expect(screen.getByTestId("crypto-checkout-form")).toBeInTheDocument();
  });

  it("says the GB the order buys, a deal's order at the deal's price rather than the list price", async () => {
    api({ "GET /transactions/ord_test_1": ok({ ...unpriced, amount_usd: 50, gb: 50, deal_id: "kE9Bq2xZ" }) });
    renderRoute("/checkout?order_id=ord_test_1");
    await screen.findByTestId("crypto-checkout-form");
    expect(screen.getByTestId("checkout-total")).toHaveTextContent("$50");
    expect(screen.getByTestId("checkout-total").parentElement).toHaveTextContent("50 GB of data");
  });

  it("shows an expired unpriced order as the normal status view, not a form", async () => {
    api({ "GET /transactions/ord_test_1": ok({ ...unpriced, payment_status: "expired" }) });
    renderRoute("/checkout?order_id=ord_test_1");
    expect(await screen.findByTestId("order-status-view")).toBeInTheDocument();
    expect(screen.queryByTestId("crypto-checkout-form")).not.toBeInTheDocument();
  });
});
