import type { HistoryEntry } from "@bytetoll/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fail, ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { historyEntryOf, historyOf, orderFixture, pageOf } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";

function signedIn(history: NonNullable<Parameters<typeof stubApi>[0]>[string]) {
  signInWithToken();
  return stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /account/status": ok({ balance_gb: 1, balance_bytes: 1e9 }),
    "GET /transactions": Response.json(pageOf([])),
    "GET /history": history,
  });
}

const freeGb: HistoryEntry = {
  kind: "bonus",
  id: "ledger:1",
  created_at: new Date(2026, 10, 20, 9, 5).toISOString(),
  gb: 1,
  note: "Free 1 GB for new accounts",
  order_id: null,
};

/** The query strings GET /history was called with, in order. */
function historyQueries(): URLSearchParams[] {
  return vi
    .mocked(fetch)
    .mock.calls.map(([input]) => new URL(String(input), "http://localhost"))
    .filter((url) => url.pathname === "/history")
    .map((url) => url.searchParams);
}

const historyTable = () => screen.findByRole("region", { name: "Transaction History" });
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole("cell")
    .map((cell) => cell.textContent);

describe("Transaction History", () => {
  it("says No purchases yet when there is nothing at all", async () => {
    signedIn(Response.json(historyOf([])));
    renderRoute("/");
    expect(await within(await historyTable()).findByText("No purchases yet")).toBeInTheDocument();
  });

  it("shows a new account's free GB as a row of its own instead of No purchases yet", async () => {
    signedIn(Response.json(historyOf([freeGb])));
    renderRoute("/");
    const table = await historyTable();
    const [row] = await within(table).findAllByTestId("history-row");
    expect(cells(row as HTMLElement)).toEqual([
      "Nov 20 2026 09:05",
      "Free data",
      "+1 GB",
      "—",
      "Free 1 GB for new accounts",
      "Credited",
    ]);
    expect(within(row as HTMLElement).queryByRole("link")).not.toBeInTheDocument();
    expect(within(table).queryByText("No purchases yet")).not.toBeInTheDocument();
  });

  it("shows an operator's debit and a refund linking to its order", async () => {
    signedIn(
      Response.json(
        historyOf([
          { ...freeGb, kind: "adjustment", id: "ledger:2", gb: -0.5, note: "Correction" },
          { ...freeGb, kind: "refund", id: "ledger:3", gb: -5, note: null, order_id: "ord-r" },
        ]),
      ),
    );
    renderRoute("/");
    const rows = await within(await historyTable()).findAllByTestId("history-row");
    expect(cells(rows[0] as HTMLElement).slice(1)).toEqual([
      "Adjustment",
      "−0.5 GB",
      "—",
      "Correction",
      "Taken back",
    ]);
    expect(cells(rows[1] as HTMLElement).slice(1)).toEqual(["Refund", "−5 GB", "—", "—", "Taken back"]);
    expect(within(rows[1] as HTMLElement).getByRole("link")).toHaveAttribute(
      "href",
      "/checkout?order_id=ord-r",
    );
  });

  it("says Failed to load purchases when the list cannot be read", async () => {
    signedIn(fail(500, "Internal server error"));
    renderRoute("/");
    expect(await within(await historyTable()).findByRole("alert")).toHaveTextContent(
      "Failed to load purchases",
    );
  });

  it("shows date, data, amount, payment and status of each order, its date a link", async () => {
    signedIn(
      Response.json(
        historyOf([
          historyEntryOf(orderFixture({ order_id: "a", payment_status: "paid", balance_gb_after: 6 })),
          historyEntryOf(
            orderFixture({ order_id: "b", method: "card", payment_token: null, amount_usd: 300, gb: 100 }),
          ),
          historyEntryOf(orderFixture({ order_id: "c", payment_status: "cancelled" })),
        ]),
      ),
    );
    renderRoute("/");
    const rows = await within(await historyTable()).findAllByTestId("history-row");
    expect(cells(rows[0] as HTMLElement)).toEqual([
      "Nov 21 2026 14:30",
      "Purchase",
      "5 GB",
      "$15",
      "USDC (Solana)",
      "Paid",
    ]);
    expect(cells(rows[1] as HTMLElement)).toEqual([
      "Nov 21 2026 14:30",
      "Purchase",
      "100 GB",
      "$300",
      "Card",
      "Unpaid",
    ]);
    expect(cells(rows[2] as HTMLElement).at(-1)).toBe("Cancelled");
    const link = within(rows[0] as HTMLElement).getByRole("link", { name: "Nov 21 2026 14:30" });
    expect(link).toHaveAttribute("href", "/checkout?order_id=a");
    link.focus();
    expect(link).toHaveFocus();
    expect(historyQueries()[0]?.get("per_page")).toBe("10");
    expect(historyQueries()[0]?.get("page")).toBe("1");
  });

  it("names each cell's column for the phone's stacked layout", async () => {
    signedIn(Response.json(historyOf([historyEntryOf(orderFixture())])));
    renderRoute("/");
    const [row] = await within(await historyTable()).findAllByTestId("history-row");
    const labels = within(row as HTMLElement)
      .getAllByRole("cell")
      .map((cell) => cell.getAttribute("data-label"));
    expect(labels).toEqual([null, "Kind", "Data", "Amount", "Payment", null]);
  });

  it("pages through 10 rows at a time", async () => {
    const firstPage = Array.from({ length: 10 }, (_, i) =>
      historyEntryOf(orderFixture({ order_id: `p1-${i}` })),
    );
    const secondPage = [freeGb];
    signedIn(() => {
      const page = historyQueries().at(-1)?.get("page");
      return Response.json(page === "2" ? historyOf(secondPage, 2, 11) : historyOf(firstPage, 1, 11));
    });
    renderRoute("/");
    const table = await historyTable();
    expect(await within(table).findAllByTestId("history-row")).toHaveLength(10);
    expect(within(table).getByTestId("history-range")).toHaveTextContent("1–10 of 11");
    const previous = within(table).getByRole("button", { name: "Previous" });
    const next = within(table).getByRole("button", { name: "Next" });
    expect(previous).toBeDisabled();

    await userEvent.click(next);
    await waitFor(() => expect(within(table).getAllByTestId("history-row")).toHaveLength(1));
    expect(within(table).getByText("Free data")).toBeInTheDocument();
    expect(within(table).getByTestId("history-range")).toHaveTextContent("11–11 of 11");
    expect(within(table).getByRole("button", { name: "Next" })).toBeDisabled();
    expect(historyQueries().map((query) => query.get("page"))).toEqual(["1", "2"]);

    await userEvent.click(within(table).getByRole("button", { name: "Previous" }));
    await waitFor(() => expect(within(table).getAllByTestId("history-row")).toHaveLength(10));
  });
});
