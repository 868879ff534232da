import type { HistoryEntry } from "@bytetoll/contracts";
import { act, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { createdSockets, lastSocket } from "../../../test/fake-socket.ts";
import { historyOf, pageOf } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import { HISTORY_REFRESH_MS } from "../hooks/use-live-history.ts";

vi.mock("socket.io-client", () => import("../../../test/fake-socket.ts"));

// Each test signs in with its own token: the page keeps one connection per token.
let tokenCount = 0;
beforeEach(() => {
  createdSockets.length = 0;
  tokenCount += 1;
});

const credit: HistoryEntry = {
  kind: "adjustment",
  id: "ledger:7",
  created_at: new Date(2026, 10, 21, 14, 30).toISOString(),
  gb: 5,
  note: "Goodwill credit",
  order_id: null,
};

/** GET /history answers with whatever the ledger holds at the time of the call. */
function signedIn(ledger: HistoryEntry[]) {
  signInWithToken(`history-jwt-${tokenCount}`);
  return stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /account/status": ok({ balance_gb: 1, balance_bytes: 1e9 }),
    "GET /transactions": Response.json(pageOf([])),
    "GET /history": () => Response.json(historyOf([...ledger])),
  });
}

const historyRegion = () => screen.findByRole("region", { name: "Transaction History" });

/** Each test renders the whole app; on a busy 2-core machine that can take several seconds. */
const SLOW_MACHINE_MS = 20_000;

describe("Transaction History, live", () => {
  it(
    "shows an operator's credit as soon as the balance change arrives, without a reload",
    async () => {
      const ledger: HistoryEntry[] = [];
      const api = signedIn(ledger);
      renderRoute("/");
      expect(await within(await historyRegion()).findByText("No purchases yet")).toBeInTheDocument();
      const socket = lastSocket();
      act(() => socket.acceptConnection());
      await waitFor(() => expect(socket.joined).toContain(`topup-transactions.${TEST_USER.id}`));
      const readsBefore = api.callsTo("GET", "/history").length;

      // The operator credits 5 GB: the ledger has a new row and the balance push follows.
      ledger.unshift(credit);
      act(() => socket.deliver("balance.updated", { balance_gb: 6, balance_bytes: 6e9 }));
      const region = await historyRegion();
      expect(await within(region).findByText("Goodwill credit")).toBeInTheDocument();
      expect(within(region).getByText("+5 GB")).toBeInTheDocument();
      expect(api.callsTo("GET", "/history").length).toBe(readsBefore + 1);
    },
    SLOW_MACHINE_MS,
  );

  it(
    "reads the history at most once per interval while the balance streams, and the last change still shows",
    async () => {
      const ledger: HistoryEntry[] = [];
      const api = signedIn(ledger);
      renderRoute("/");
      await within(await historyRegion()).findByText("No purchases yet");
      const socket = lastSocket();
      act(() => socket.acceptConnection());
      await waitFor(() => expect(socket.joined).toContain(`topup-transactions.${TEST_USER.id}`));
      const readsBefore = api.callsTo("GET", "/history").length;

      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      try {
        // Proxy traffic: a push every second; the first is read at once.
        act(() => socket.deliver("balance.updated", { balance_gb: 0.99, balance_bytes: 0.99e9 }));
        await vi.waitFor(() => expect(api.callsTo("GET", "/history").length).toBe(readsBefore + 1));
        for (let second = 1; second < 4; second += 1) {
          await act(() => vi.advanceTimersByTimeAsync(1_000));
          act(() => socket.deliver("balance.updated", { balance_gb: 0.99 - second / 100, balance_bytes: 1 }));
        }
        // A refund lands among them: it shows at the end of the interval.
        ledger.unshift({ ...credit, id: "ledger:8", kind: "refund", note: "Refund of a failed order" });
        act(() => socket.deliver("balance.updated", { balance_gb: 2, balance_bytes: 2e9 }));
        expect(api.callsTo("GET", "/history").length).toBe(readsBefore + 1);
        await act(() => vi.advanceTimersByTimeAsync(HISTORY_REFRESH_MS));
      } finally {
        vi.useRealTimers();
      }
      expect(await within(await historyRegion()).findByText("Refund of a failed order")).toBeInTheDocument();
      expect(api.callsTo("GET", "/history").length).toBe(readsBefore + 2);
    },
    SLOW_MACHINE_MS,
  );
});
