import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fail, ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { orderFixture } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import type { Order } from "../api/order.ts";
import { formatTimeLeft } from "../hooks/use-time-left.ts";

vi.mock("socket.io-client", () => import("../../../test/fake-socket.ts"));

function orderApi(order: () => Order, overrides: Parameters<typeof stubApi>[0] = {}) {
  signInWithToken();
  return stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /transactions/ord_test_1": () => ok(order()),
    ...overrides,
  });
}

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1_000).toISOString();

describe("an unpaid order's deadline", () => {
  it("counts the time left to pay down every second", async () => {
    orderApi(() => orderFixture({ expires_at: inSeconds(59 * 60 + 30) }));
    renderRoute("/checkout?order_id=ord_test_1");
    const left = await screen.findByTestId("time-left");
    expect(screen.getByTestId("payment-deadline")).toHaveTextContent(/^Time left to pay:59:(30|29)$/);
    const first = left.textContent;
    await waitFor(() => expect(screen.getByTestId("time-left").textContent).not.toBe(first), {
      timeout: 2_500,
    });
  });

  it("says Expired when the time runs out and reads the order again", async () => {
    // Far enough ahead that the page shows the countdown first, even on a busy machine.
    const expiresAt = inSeconds(4);
    let status = "waiting";
    const api = orderApi(() => orderFixture({ expires_at: expiresAt, payment_status: status }));
    renderRoute("/checkout?order_id=ord_test_1");
    await screen.findByTestId("time-left");
    expect(
      await screen.findByText("Expired", { selector: "strong" }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo("GET", "/transactions/ord_test_1")).toHaveLength(2));
    // The server shows it expired at the next read: the page follows.
    status = "expired";
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    await waitFor(() => expect(screen.getByTestId("order-status")).toHaveTextContent("Expired"));
    expect(screen.queryByRole("button", { name: "Cancel order" })).not.toBeInTheDocument();
  }, 30_000);

  it("formats hours, minutes and seconds", () => {
    expect(formatTimeLeft(59 * 60_000 + 7_000)).toBe("59:07");
    expect(formatTimeLeft(3_723_000)).toBe("1:02:03");
    expect(formatTimeLeft(400)).toBe("0:01");
  });
});

describe("cancelling an unpaid order", () => {
  it("asks first, then cancels and shows the order cancelled", async () => {
    const api = orderApi(() => orderFixture({ expires_at: inSeconds(600) }), {
      "POST /transactions/ord_test_1/cancel": () =>
        ok(orderFixture({ expires_at: inSeconds(600), payment_status: "cancelled" })),
    });
    renderRoute("/checkout?order_id=ord_test_1");
    await userEvent.click(await screen.findByRole("button", { name: "Cancel order" }));
    const dialog = await screen.findByRole("dialog", { name: "Cancel this order?" });

    await userEvent.click(within(dialog).getByRole("button", { name: "Keep order" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(api.callsTo("POST", "/transactions/ord_test_1/cancel")).toHaveLength(0);

    await userEvent.click(screen.getByRole("button", { name: "Cancel order" }));
    await userEvent.click(await screen.findByRole("button", { name: "Yes, cancel order" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getByTestId("order-status")).toHaveTextContent("Cancelled");
    expect(screen.getByTestId("order-cancelled")).toHaveTextContent("You cancelled this order.");
    expect(screen.queryByTestId("payment-deadline")).not.toBeInTheDocument();
    expect(api.callsTo("POST", "/transactions/ord_test_1/cancel")).toHaveLength(1);
  });

  it("shows the server's refusal in the dialog", async () => {
    orderApi(() => orderFixture({ expires_at: inSeconds(600) }), {
      "POST /transactions/ord_test_1/cancel": () =>
        fail(409, "Only an unpaid order can be cancelled: this one is paid."),
    });
    renderRoute("/checkout?order_id=ord_test_1");
    await userEvent.click(await screen.findByRole("button", { name: "Cancel order" }));
    await userEvent.click(await screen.findByRole("button", { name: "Yes, cancel order" }));
    expect(await within(screen.getByRole("dialog")).findByRole("alert")).toHaveTextContent(
      "Only an unpaid order can be cancelled: this one is paid.",
    );
  });
});

describe("a paid order", () => {
  it("links to its printable receipt", async () => {
    orderApi(() => orderFixture({ payment_status: "paid", paid_at: inSeconds(-60) }));
    renderRoute("/checkout?order_id=ord_test_1");
    expect(await screen.findByRole("link", { name: "Receipt" })).toHaveAttribute(
      "href",
      "/orders/ord_test_1/receipt",
    );
    expect(screen.queryByRole("button", { name: "Cancel order" })).not.toBeInTheDocument();
  });
});
