import { encodeDealId } from "@bytetoll/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fail, ok, signInWithToken, stubApi, TEST_CONFIG, TEST_USER } from "../../../test/api-stub.ts";
import { dealFixture } from "../../../test/deal-fixture.ts";
import { orderFixture } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import { parseUsdParam } from "../purchase-amount.ts";

const ACK = "I understand that sending tokens using another blockchain network will result in loss of funds.";

function checkoutApi(overrides: Parameters<typeof stubApi>[0] = {}) {
  signInWithToken();
  return stubApi({ "GET /auth/session": ok(TEST_USER), ...overrides });
}

async function openForm(path: string) {
  const view = renderRoute(path);
  await screen.findByTestId("crypto-checkout-form");
  return view;
}

const payButton = () => screen.getByRole("button", { name: "Pay" });

describe("checkout form", () => {
  it("keeps Pay disabled until a network is chosen and the warning acknowledged", async () => {
    checkoutApi();
    await openForm("/checkout?usd=25");
    expect(screen.getByTestId("checkout-total")).toHaveTextContent("$25");
    expect(screen.queryByLabelText("Amount (USD)")).not.toBeInTheDocument();
    expect(payButton()).toBeDisabled();
    await userEvent.click(screen.getByLabelText(ACK));
    expect(payButton()).toBeDisabled();
    await userEvent.selectOptions(screen.getByLabelText("USDC network"), "base");
    expect(payButton()).toBeEnabled();
    await userEvent.click(screen.getByLabelText(ACK));
    expect(payButton()).toBeDisabled();
  });

  it("offers solana, polygon, base and ethereum", async () => {
    checkoutApi();
    await openForm("/checkout");
    const options = Array.from((screen.getByLabelText("USDC network") as HTMLSelectElement).options);
    expect(options.map((option) => option.value)).toEqual(["", "solana", "polygon", "base", "ethereum"]);
  });

  it("lets the amount be edited without usd and creates the order with the deal", async () => {
    const di = encodeDealId(42);
    const api = checkoutApi({
      "POST /transactions": ok(orderFixture({ order_id: "ord_form" })),
      [`GET /deals/${di}`]: ok(dealFixture({ id: di })),
    });
    const { router } = await openForm(`/checkout?di=${di}`);
    const amount = screen.getByLabelText("Amount (USD)");
    await userEvent.clear(amount);
    await userEvent.type(amount, "0");
    expect(screen.getByText("Enter an amount greater than $0.")).toBeInTheDocument();
    await userEvent.clear(amount);
    await userEvent.type(amount, "12.5");
    await userEvent.selectOptions(screen.getByLabelText("USDC network"), "polygon");
    await userEvent.click(screen.getByLabelText(ACK));
    await userEvent.click(payButton());
    await waitFor(() => expect(router.state.location.search).toBe("?order_id=ord_form"));
    expect(api.callsTo("POST", "/transactions")[0]?.body).toEqual({
      amount: 12.5,
      method: "crypto",
      network_type: "polygon",
      deal_id: encodeDealId(42),
    });
  });

  it("shows the creation error inline and stays on the form", async () => {
    checkoutApi({ "POST /transactions": fail(400, "amount must be at most 100000") });
    const { router } = await openForm("/checkout?usd=25");
    await userEvent.selectOptions(screen.getByLabelText("USDC network"), "solana");
    await userEvent.click(screen.getByLabelText(ACK));
    await userEvent.click(payButton());
    expect(await screen.findByRole("alert")).toHaveTextContent("amount must be at most 100000");
    expect(router.state.location.search).toBe("?usd=25");
  });

  it("names the payment providers the operator configured, before any order exists", async () => {
    checkoutApi();
    await openForm("/checkout?usd=25");
    expect(await screen.findByText("Pay with USDC. Powered by NOWPayments.")).toBeInTheDocument();
    expect(screen.getByText("Card payments are powered by Stripe.")).toBeInTheDocument();
  });

  it("names the sandbox when it takes the payments, and no card provider when cards are off", async () => {
    checkoutApi({ "GET /config": ok({ ...TEST_CONFIG, crypto_provider: "sandbox", card_provider: null }) });
    await openForm("/checkout?usd=25");
    expect(
      await screen.findByText("Pay with USDC. Powered by Sandbox (test mode, no money moves)."),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Card payments are powered by/)).not.toBeInTheDocument();
    expect(screen.queryByText(/our .* payment provider/)).not.toBeInTheDocument();
  });

  it("holds checkout to the same limits as Buy More: at least 1 GB at the list price, at most $100,000", async () => {
    checkoutApi();
    const small = await openForm("/checkout");
    const amount = screen.getByLabelText("Amount (USD)");
    await userEvent.clear(amount);
    await userEvent.type(amount, "1");
    expect(screen.getByText("The least one order can be is $3 (1 GB).")).toBeInTheDocument();
    expect(screen.getByTestId("checkout-total")).toHaveTextContent("—");
    await userEvent.click(screen.getByLabelText(ACK));
    await userEvent.selectOptions(screen.getByLabelText("USDC network"), "base");
    expect(payButton()).toBeDisabled();
    expect(screen.getByRole("button", { name: "Pay by card" })).toBeDisabled();
    small.unmount();

    await openForm("/checkout?usd=1e9");
    expect(screen.getByTestId("fixed-amount-problem")).toHaveTextContent(
      "The most one order can be is $100,000.",
    );
    expect(screen.getByTestId("checkout-total")).toHaveTextContent("—");
    expect(screen.queryByText(/333,333,333/)).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Pay by card" })).toBeDisabled();
  });

  it("says a deal link that is not ours is no longer available", async () => {
    checkoutApi();
    renderRoute("/checkout?di=!!&usd=25");
    expect(
      await screen.findByText("This deal is no longer available. Please check back again soon."),
    ).toBeInTheDocument();
    expect(screen.queryByTestId("crypto-checkout-form")).not.toBeInTheDocument();
  });

  it("reads usd as a positive whole number, else 0", () => {
    expect(parseUsdParam("25")).toBe(25);
    expect(parseUsdParam("24.6")).toBe(25);
    expect(parseUsdParam("-5")).toBe(0);
    expect(parseUsdParam("abc")).toBe(0);
    expect(parseUsdParam("Infinity")).toBe(0);
    expect(parseUsdParam(null)).toBe(0);
  });
});
