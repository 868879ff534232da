import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fail, ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { orderFixture } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";

function receiptApi(reply: Response) {
  signInWithToken();
  return stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /transactions/ord_test_1/receipt": () => reply.clone(),
  });
}

const operator = { name: "Toll Networks Ltd", address_lines: ["1 Exchange Square", "London EC2A 2BR"] };

describe("the receipt page", () => {
  it("shows the paid order, its provider and hash, and who issues the receipt, with Print", async () => {
    const order = orderFixture({
      payment_status: "paid",
      paid_at: new Date(2026, 10, 21, 14, 41).toISOString(),
      payin_hash: "5xHashOfThePayment",
      provider: "nowpayments",
    });
    receiptApi(ok({ order, operator }));
    renderRoute("/orders/ord_test_1/receipt");
    expect(await screen.findByRole("heading", { name: "Receipt" })).toBeInTheDocument();
    expect(screen.getByTestId("operator")).toHaveTextContent(
      "Toll Networks Ltd1 Exchange SquareLondon EC2A 2BR",
    );
    expect(screen.getByTestId("receipt-order")).toHaveTextContent("ord_test_1");
    expect(screen.getByTestId("receipt-date-paid")).toHaveTextContent("Nov 21 2026 14:41");
    expect(screen.getByTestId("receipt-data")).toHaveTextContent("5 GB");
    expect(screen.getByTestId("receipt-amount")).toHaveTextContent("15.00 USDC ($15)");
    expect(screen.getByTestId("receipt-payment-provider")).toHaveTextContent("NOWPayments");
    expect(screen.getByTestId("receipt-transaction-hash")).toHaveTextContent("5xHashOfThePayment");
    expect(screen.getByText(`Billed to ${TEST_USER.email}`)).toBeInTheDocument();
    expect(document.title).toBe("Receipt · ByteToll");
    const print = vi.spyOn(window, "print").mockImplementation(() => {});
    screen.getByRole("button", { name: "Print" }).click();
    expect(print).toHaveBeenCalledOnce();
  });

  it.each([
    ["none", null],
    ["only the placeholder DUMMY_TX_ID", "DUMMY_TX_ID"],
  ])("leaves out the hash when the payment has %s", async (_, payin_hash) => {
    receiptApi(ok({ order: orderFixture({ payment_status: "paid", payin_hash }), operator }));
    renderRoute("/orders/ord_test_1/receipt");
    await screen.findByTestId("receipt");
    expect(screen.queryByTestId("receipt-transaction-hash")).not.toBeInTheDocument();
    expect(screen.queryByText(/DUMMY_TX_ID/)).not.toBeInTheDocument();
  });

  it("says why an unpaid order has no receipt and leads back to it", async () => {
    receiptApi(fail(409, "Only a paid order has a receipt."));
    renderRoute("/orders/ord_test_1/receipt");
    expect(await screen.findByRole("alert")).toHaveTextContent("Only a paid order has a receipt.");
    expect(screen.getByRole("link", { name: "Back to the order" })).toHaveAttribute(
      "href",
      "/checkout?order_id=ord_test_1",
    );
  });

  it("says Order not found for someone else's order", async () => {
    receiptApi(fail(404, "Order not found"));
    renderRoute("/orders/ord_test_1/receipt");
    expect(await screen.findByRole("heading", { name: "Order not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go back to Dashboard" })).toHaveAttribute("href", "/");
  });
});
