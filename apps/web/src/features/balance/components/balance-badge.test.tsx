import { act, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { createdSockets, lastSocket } from "../../../test/fake-socket.ts";
import { pageOf } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import { ZERO_BALANCE_MESSAGE } from "./zero-balance-warning.tsx";

vi.mock("socket.io-client", () => import("../../../test/fake-socket.ts"));

// Each test signs in with its own token: the page keeps one connection per token.
let tokenCount = 0;
beforeEach(() => {
  createdSockets.length = 0;
  tokenCount += 1;
});
afterEach(() => {
  vi.useRealTimers();
});

function signedIn(balanceGb: number) {
  signInWithToken(`balance-jwt-${tokenCount}`);
  return stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /transactions": Response.json(pageOf([])),
    "GET /account/status": ok({ balance_gb: balanceGb, balance_bytes: balanceGb * 1e9 }),
  });
}

const topBar = () => screen.getByRole("banner");
const badge = () => within(topBar()).getByTestId("balance-badge-gb");

/** Each test renders the whole app; on a busy 2-core machine that can take several seconds. */
const SLOW_MACHINE_MS = 20_000;

describe("the top bar's balance", () => {
  it(
    "shows the balance on a signed-in page as a link to Buy Data",
    async () => {
      signedIn(6.5);
      renderRoute("/usage");
      await screen.findByRole("banner");
      const link = await within(topBar()).findByRole("link", { name: "Balance 6.5 GB, buy data" });
      expect(link).toHaveAttribute("href", "/");
    },
    SLOW_MACHINE_MS,
  );

  it(
    "follows balance.updated on the user's room, and the zero-balance warning comes and goes with it",
    async () => {
      signedIn(0.2);
      renderRoute("/");
      await waitFor(() => expect(badge()).toHaveTextContent("0.2 GB"));
      const socket = lastSocket();
      act(() => socket.acceptConnection());
      expect(socket.joined).toContain(`topup-transactions.${TEST_USER.id}`);
      expect(screen.queryByText(ZERO_BALANCE_MESSAGE)).toBeNull();

      act(() => socket.deliver("balance.updated", { balance_gb: 0, balance_bytes: 0 }));
      await waitFor(() => expect(badge()).toHaveTextContent("0 GB"));
      expect(screen.getByTestId("balance-gb")).toHaveTextContent("0 GB");
      expect(screen.getByText(ZERO_BALANCE_MESSAGE)).toBeInTheDocument();

      act(() => socket.deliver("balance.updated", { balance_gb: 10, balance_bytes: 1e10 }));
      await waitFor(() => expect(badge()).toHaveTextContent("10 GB"));
      expect(screen.queryByText(ZERO_BALANCE_MESSAGE)).toBeNull();

      // Something that is not a balance changes nothing.
      act(() => socket.deliver("balance.updated", { balance_gb: "lots" }));
      expect(badge()).toHaveTextContent("10 GB");
    },
    SLOW_MACHINE_MS,
  );

  it(
    "polls every 30 s while the socket is down, and stops once it is connected",
    async () => {
      vi.useFakeTimers({
        shouldAdvanceTime: true,
        toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"],
      });
      const api = signedIn(3);
      renderRoute("/usage");
      await waitFor(() => expect(badge()).toHaveTextContent("3 GB"));
      const reads = () => api.callsTo("GET", "/account/status").length;
      const before = reads();

      await act(() => vi.advanceTimersByTimeAsync(30_000));
      expect(reads()).toBe(before + 1);
      await act(() => vi.advanceTimersByTimeAsync(30_000));
      expect(reads()).toBe(before + 2);

      // Connected: one read for what may have been missed, then no more polling.
      act(() => lastSocket().acceptConnection());
      await waitFor(() => expect(reads()).toBe(before + 3));
      await act(() => vi.advanceTimersByTimeAsync(90_000));
      expect(reads()).toBe(before + 3);
    },
    SLOW_MACHINE_MS,
  );
});
