import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fail, ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { orderFixture, pageOf } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";

function signedIn(history: NonNullable<Parameters<typeof stubApi>[0]>[string]) {
  signInWithToken();
  return stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /account/status": ok({ balance_gb: 1, balance_bytes: 1e9 }),
    "GET /transactions": history,
  });
}

/** The query strings GET /transactions was called with, in order. */
function historyQueries(): URLSearchParams[] {
  return vi
    .mocked(fetch)
    .mock.calls.map(([input]) => new URL(String(input), "http://localhost"))
    .filter((url) => url.pathname === "/transactions")
    .map((url) => url.searchParams);
}

const historyTable = () => screen.findByRole("region", { name: "Transaction History" });

describe("Transaction History", () => {
  it("says No purchases yet when there are none", async () => {
    signedIn(Response.json(pageOf([])));
    renderRoute("/");
    expect(await within(await historyTable()).findByText("No purchases yet")).toBeInTheDocument();
  });

  it("says Failed to load purchases when the list cannot be read", async () => {
    signedIn(fail(500, "Internal server error"));
    renderRoute("/");
    expect(await within(await historyTable()).findByRole("alert")).toHaveTextContent(
      "Failed to load purchases",
    );
  });

  it("shows date, data, amount, payment and status of each order", async () => {
    signedIn(
      Response.json(
        pageOf([
          orderFixture({ order_id: "a", payment_status: "paid", balance_gb_after: 6 }),
          orderFixture({ order_id: "b", method: "card", payment_token: null, amount_usd: 300, gb: 100 }),
        ]),
      ),
    );
    renderRoute("/");
    const rows = await within(await historyTable()).findAllByTestId("history-row");
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent);
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
    expect(within(rows[0] as HTMLElement).getByRole("link")).toHaveAttribute("href", "/checkout?order_id=a");
    expect(historyQueries()[0]?.get("per_page")).toBe("10");
    expect(historyQueries()[0]?.get("page")).toBe("1");
  });

  it("pages through 10 orders at a time", async () => {
    const firstPage = Array.from({ length: 10 }, (_, i) => orderFixture({ order_id: `p1-${i}` }));
    const secondPage = [orderFixture({ order_id: "p2-0", gb: 42, amount_usd: 126 })];
    signedIn(() => {
      const page = historyQueries().at(-1)?.get("page");
      return Response.json(page === "2" ? pageOf(secondPage, 2, 11) : pageOf(firstPage, 1, 11));
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
    expect(within(table).getByText("42 GB")).toBeInTheDocument();
    expect(within(table).getByTestId("history-range")).toHaveTextContent("11–11 of 11");
    expect(within(table).getByRole("button", { name: "Next" })).toBeDisabled();
    expect(historyQueries().map((query) => query.get("page"))).toEqual(["1", "2"]);

    await userEvent.click(within(table).getByRole("button", { name: "Previous" }));
    await waitFor(() => expect(within(table).getAllByTestId("history-row")).toHaveLength(10));
  });
});
