import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fail, ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import type { FakeSocket } from "../../../test/fake-socket.ts";
import { orderFixture } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import type { Order } from "../api/order.ts";

const sockets = vi.hoisted(() => ({
  created: [] as Array<{ url: unknown; options: unknown; socket: unknown }>,
}));
vi.mock("socket.io-client", async () => {
  const { FakeSocket: Fake } = await import("../../../test/fake-socket.ts");
  return {
    io: (url: unknown, options: unknown) => {
      const socket = new Fake();
      sockets.created.push({ url, options, socket });
      return socket;
    },
  };
});
const lastSocket = () => sockets.created.at(-1)?.socket as FakeSocket;

// Each test signs in with its own token: the page keeps one connection per token.
let tokenCount = 0;
const token = () => `order-jwt-${tokenCount}`;
beforeEach(() => {
  sockets.created.length = 0;
  tokenCount += 1;
});

function orderApi(order: Order | (() => Response), overrides: Parameters<typeof stubApi>[0] = {}) {
  signInWithToken(token());
  return stubApi({
    "GET /auth/session": ok(TEST_USER),
    [`GET /transactions/${typeof order === "function" ? "ord_test_1" : order.order_id}`]:
      typeof order === "function" ? order : ok(order),
    ...overrides,
  });
}

describe("order status view", () => {
  it("shows an unpaid USDC order with pay address, QR code, amount and token", async () => {
    orderApi(orderFixture({ price_amount: 15.5 }));
    renderRoute("/checkout?order_id=ord_test_1");
    expect(await screen.findByTestId("order-status")).toHaveTextContent("Unpaid");
    expect(screen.getByTestId("pay-address")).toHaveTextContent(
      "So1anaSandboxPayAddress111111111111111111111",
    );
    expect(screen.getByRole("img", { name: "QR code of the pay address" })).toHaveAttribute(
      "src",
      "data:image/png;base64,iVBORw0KGgo=",
    );
    expect(screen.getByTestId("order-amount")).toHaveTextContent("15.50 USDC");
    expect(screen.getByTestId("order-payment-token")).toHaveTextContent("USDC (Solana)");
    expect(screen.getByText(/Waiting for payment/)).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /View transaction/ })).not.toBeInTheDocument();
  });

  it("shows a paid order green with the balance after and the explorer link", async () => {
    orderApi(
      orderFixture({
        payment_status: "paid",
        balance_gb_after: 6,
        transaction_url: "https://solscan.io/tx/abc",
      }),
    );
    renderRoute("/checkout?order_id=ord_test_1");
    const badge = await screen.findByTestId("order-status");
    expect(badge).toHaveTextContent("Paid");
    expect(badge).toHaveAttribute("data-tone", "paid");
    expect(screen.getByTestId("order-balance-after")).toHaveTextContent("6 GB");
    expect(screen.getByRole("link", { name: /View transaction/ })).toHaveAttribute(
      "href",
      "https://solscan.io/tx/abc",
    );
    expect(screen.queryByTestId("pay-address")).not.toBeInTheDocument();
  });

  it("says how much of a partially paid order arrived, that nothing is added until the rest does, and where to send it", async () => {
    orderApi(
      orderFixture({
        payment_status: "partially_paid",
        note: "Received 12.50 of 15.00 USDC.",
        payin_hash: "abc",
      }),
    );
    renderRoute("/checkout?order_id=ord_test_1");
    expect(await screen.findByTestId("order-status")).toHaveTextContent("Partially paid");
    const partial = screen.getByRole("region", { name: "Partial payment" });
    expect(screen.getByTestId("partial-payment")).toHaveTextContent(
      "Received 12.50 of 15.00 USDC. The 5 GB of this order are added to your balance once the full amount has arrived.",
    );
    expect(partial).toHaveTextContent("Send the rest in USDC on Solana to the same address:");
    expect(partial).toHaveTextContent("So1anaSandboxPayAddress111111111111111111111");
    expect(partial).toHaveTextContent("If you cannot send the rest, contact Support and we will help.");
    expect(screen.getByTestId("order-balance-after")).toHaveTextContent("—");
    expect(screen.queryByText(/Payment received/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Waiting for payment/)).not.toBeInTheDocument();
  });

  it.each([
    ["nowpayments", "Powered by NOWPayments."],
    ["stripe", "Powered by Stripe."],
    ["sandbox", "Powered by Sandbox (test mode, no money moves)."],
  ] as const)("names the %s provider the order's payment was opened with", async (provider, line) => {
    orderApi(orderFixture({ provider }));
    renderRoute("/checkout?order_id=ord_test_1");
    expect(await screen.findByTestId("powered-by")).toHaveTextContent(line);
  });

  it("says an unknown order (or someone else's) is not found and offers the way back", async () => {
    orderApi(() => fail(404, "Order not found"));
    const { router } = renderRoute("/checkout?order_id=ord_test_1");
    expect(await screen.findByRole("heading", { name: "Order not found" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Check the link, or find the order in your purchase history.",
    );
    await userEvent.click(screen.getByRole("link", { name: "Go back to Dashboard" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  it("shows the server's message with the way back when the order cannot be read", async () => {
    orderApi(() => fail(403, "Unauthorized"));
    renderRoute("/checkout?order_id=ord_test_1");
    expect(await screen.findByRole("heading", { name: "We couldn't load this order" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("Unauthorized");
    expect(screen.getByRole("link", { name: "Go back to Dashboard" })).toHaveAttribute("href", "/");
  });

  it("turns paid when the realtime event arrives, without asking the server again", async () => {
    const api = orderApi(orderFixture());
    const { queryClient } = renderRoute("/checkout?order_id=ord_test_1");
    await screen.findByText("Unpaid");
    const socket = lastSocket();
    expect(sockets.created.at(-1)?.options).toMatchObject({
      path: "/socket.io",
      auth: { token: token() },
    });
    expect(screen.getByTestId("live-status")).toHaveAttribute("data-state", "connecting");
    act(() => socket.acceptConnection());
    expect(socket.joined).toEqual([`topup-transactions.${TEST_USER.id}`]);
    expect(screen.getByTestId("live-status")).toHaveAttribute("data-state", "connected");

    // Joining read the order once more (see the next test); the event itself asks nothing.
    await waitFor(() => expect(api.callsTo("GET", "/transactions/ord_test_1")).toHaveLength(2));
    queryClient.setQueryData(["account", "status"], { balance_gb: 1, balance_bytes: 1e9 });
    act(() =>
      socket.deliver("topup-transaction.updated", {
        topup_transaction: orderFixture({ payment_status: "paid", balance_gb_after: 6 }),
      }),
    );
    expect(await screen.findByText("Paid")).toBeInTheDocument();
    expect(screen.getByTestId("order-balance-after")).toHaveTextContent("6 GB");
    expect(queryClient.getQueryState(["account", "status"])?.isInvalidated).toBe(true);
    expect(api.callsTo("GET", "/transactions/ord_test_1")).toHaveLength(2);
  });

  it("reads the order again once the server has joined the page to its room: a payment confirmed before was never pushed", async () => {
    let status = "waiting";
    const api = orderApi(() => ok(orderFixture({ payment_status: status, balance_gb_after: 6 })));
    renderRoute("/checkout?order_id=ord_test_1");
    await screen.findByText("Unpaid");
    const socket = lastSocket();
    socket.holdAcks = true;
    act(() => socket.acceptConnection());
    // Connected, not yet in the room: the payment is confirmed now and its push goes nowhere.
    status = "paid";
    expect(api.callsTo("GET", "/transactions/ord_test_1")).toHaveLength(1);
    act(() => socket.releaseAcks());
    expect(await screen.findByText("Paid")).toBeInTheDocument();
    expect(screen.getByTestId("order-balance-after")).toHaveTextContent("6 GB");
  });

  it("joins the channel again after a reconnect and reports a refused channel as error", async () => {
    orderApi(orderFixture());
    renderRoute("/checkout?order_id=ord_test_1");
    await screen.findByText("Unpaid");
    const socket = lastSocket();
    act(() => socket.acceptConnection());
    act(() => socket.deliver("disconnect", "transport close"));
    expect(screen.getByTestId("live-status")).toHaveAttribute("data-state", "connecting");
    socket.subscribeAck = { ok: false, message: "Forbidden" };
    act(() => socket.acceptConnection());
    expect(screen.getByTestId("live-status")).toHaveAttribute("data-state", "error");
  });

  it("refreshes by hand, showing Checking... for at least half a second", async () => {
    let status = "waiting";
    const api = orderApi(() => ok(orderFixture({ payment_status: status })));
    renderRoute("/checkout?order_id=ord_test_1");
    await screen.findByText("Unpaid");
    status = "expired";
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ["setTimeout", "clearTimeout"] });
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(screen.getByRole("button", { name: "Checking..." })).toBeDisabled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(400);
    });
    expect(screen.getByRole("button", { name: "Checking..." })).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(await screen.findByRole("button", { name: "Refresh" })).toBeEnabled();
    expect(screen.getByTestId("order-status")).toHaveTextContent("Expired");
    expect(api.callsTo("GET", "/transactions/ord_test_1")).toHaveLength(2);
  });

  it("says Failed to refresh with the reason", async () => {
    let reply: () => Response = () => ok(orderFixture());
    orderApi(() => reply());
    renderRoute("/checkout?order_id=ord_test_1");
    await screen.findByText("Unpaid");
    reply = () => fail(401, "Unauthorized");
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(await screen.findByText("Failed to refresh: Unauthorized")).toBeInTheDocument();
    expect(screen.getByTestId("order-status")).toHaveTextContent("Unpaid");
  });

  it("copies the pay address and says Copied! for 2 s, or Failed to copy", async () => {
    orderApi(orderFixture());
    renderRoute("/checkout?order_id=ord_test_1");
    await screen.findByText("Unpaid");
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ["setTimeout", "clearTimeout"] });
    await userEvent.click(screen.getByRole("button", { name: "Copy pay address" }));
    expect(writeText).toHaveBeenCalledWith("So1anaSandboxPayAddress111111111111111111111");
    expect(screen.getByText("Copied!")).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2100);
    });
    await waitFor(() => expect(screen.queryByText("Copied!")).not.toBeInTheDocument());

    writeText.mockRejectedValueOnce(new Error("denied"));
    await userEvent.click(screen.getByRole("button", { name: "Copy pay address" }));
    expect(await screen.findByText("Failed to copy")).toBeInTheDocument();
  });
});
