import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fail, ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { orderFixture, pageOf } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import { leavePage } from "../leave-page.ts";

vi.mock("../leave-page.ts", () => ({ leavePage: vi.fn() }));
beforeEach(() => vi.mocked(leavePage).mockClear());

function dashboardApi(overrides: Parameters<typeof stubApi>[0] = {}) {
  signInWithToken();
  return stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /account/status": ok({ balance_gb: 1, balance_bytes: 1e9 }),
    "GET /transactions": Response.json(pageOf([])),
    ...overrides,
  });
}

async function openBuyMore() {
  const user = userEvent.setup();
  const view = renderRoute("/");
  await user.click(await screen.findByRole("button", { name: "Buy More" }));
  const dialog = await screen.findByRole("dialog", { name: "Buy More Data" });
  return { ...view, user, dialog };
}

const amountField = () => screen.getByLabelText("Amount (GB)");
const payButton = (dialog: HTMLElement) => within(dialog).getByRole("button", { name: /^Pay|Creating/ });

describe("Buy More Data modal", () => {
  it("starts at 100 GB and shows the total at 3 USD per GB before paying", async () => {
    dashboardApi();
    const { user, dialog } = await openBuyMore();
    expect(amountField()).toHaveValue(100);
    expect(within(dialog).getByTestId("buy-more-total")).toHaveTextContent("$300");
    await user.clear(amountField());
    await user.type(amountField(), "5");
    expect(within(dialog).getByTestId("buy-more-total")).toHaveTextContent("$15");
  });

  it("names the provider behind each way of paying", async () => {
    dashboardApi();
    const { dialog } = await openBuyMore();
    expect(within(dialog).getByText("Powered by NOWPayments")).toBeInTheDocument();
    expect(within(dialog).getByText("Powered by Stripe")).toBeInTheDocument();
  });

  it("refuses less than 1 GB", async () => {
    dashboardApi();
    const { user, dialog } = await openBuyMore();
    await user.click(within(dialog).getByRole("radio", { name: /Card/ }));
    await user.clear(amountField());
    await user.type(amountField(), "0");
    expect(within(dialog).getByText("Enter a whole number of GB, at least 1.")).toBeInTheDocument();
    expect(payButton(dialog)).toBeDisabled();
    await user.clear(amountField());
    await user.type(amountField(), "1");
    expect(payButton(dialog)).toBeEnabled();
  });

  it("needs a network and the acknowledgment before paying with USDC, then opens the order", async () => {
    const api = dashboardApi({
      "POST /transactions": () => Response.json({ success: true, data: orderFixture() }, { status: 201 }),
    });
    const { user, dialog, router } = await openBuyMore();
    await user.clear(amountField());
    await user.type(amountField(), "5");
    expect(payButton(dialog)).toBeDisabled();
    await user.selectOptions(within(dialog).getByLabelText("USDC network"), "solana");
    expect(payButton(dialog)).toBeDisabled();
    await user.click(
      within(dialog).getByLabelText(
        "I understand that sending tokens using another blockchain network will result in loss of funds.",
      ),
    );
    expect(payButton(dialog)).toHaveTextContent("Pay $15 with USDC");
    await user.click(payButton(dialog));
    await waitFor(() => expect(router.state.location.pathname).toBe("/checkout"));
    expect(router.state.location.search).toBe("?order_id=ord_test_1");
    expect(api.callsTo("POST", "/transactions")[0]?.body).toEqual({
      amount: 15,
      method: "crypto",
      network_type: "solana",
    });
  });

  it("sends card buyers to the hosted card page", async () => {
    const api = dashboardApi({
      "POST /transactions": ok(orderFixture({ method: "card", order_id: "ord_card", pay_address: null })),
      "POST /stripe/sessions": ok({ redirect_url: "https://pay.example.test/c/ord_card" }),
    });
    const { user, dialog } = await openBuyMore();
    await user.click(within(dialog).getByRole("radio", { name: /Card/ }));
    expect(within(dialog).queryByLabelText("USDC network")).not.toBeInTheDocument();
    await user.click(payButton(dialog));
    await waitFor(() => expect(leavePage).toHaveBeenCalledWith("https://pay.example.test/c/ord_card"));
    expect(api.callsTo("POST", "/transactions")[0]?.body).toEqual({ amount: 300, method: "card" });
    expect(api.callsTo("POST", "/stripe/sessions")[0]?.body).toEqual({ order_id: "ord_card" });
  });

  it.each([
    ["an answer without redirect_url", ok({}), "Invalid response from server."],
    [
      "the server's refusal",
      fail(503, "Card payments are not available."),
      "Card payments are not available.",
    ],
    [
      "a failure without text",
      new Response("bad gateway", { status: 502 }),
      "Something went wrong. Please try again.",
    ],
  ])("shows the card error for %s and stays", async (_case, reply, message) => {
    dashboardApi({
      "POST /transactions": ok(orderFixture({ method: "card" })),
      "POST /stripe/sessions": reply,
    });
    const { user, dialog } = await openBuyMore();
    await user.click(within(dialog).getByRole("radio", { name: /Card/ }));
    await user.click(payButton(dialog));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(message);
    expect(leavePage).not.toHaveBeenCalled();
    expect(payButton(dialog)).toBeEnabled();
  });

  it("shows why the order could not be created", async () => {
    dashboardApi({ "POST /transactions": new Response("nope", { status: 500 }) });
    const { user, dialog } = await openBuyMore();
    await user.click(within(dialog).getByRole("radio", { name: /Card/ }));
    await user.click(payButton(dialog));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Failed to create transaction");
  });
});
