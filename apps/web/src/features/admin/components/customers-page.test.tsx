import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fail } from "../../../test/api-stub.ts";
import { customerFixture, listOf, never, openConsole } from "../admin-stub.ts";

// The first render of a file loads the lazy route modules, which takes seconds on a busy machine.
const FIRST_RENDER = { timeout: 30_000 };

const table = () => screen.findByRole("table", { name: "Customers" });

describe("the Customers page", { timeout: 40_000 }, () => {
  it("shows a skeleton while the first page loads", async () => {
    openConsole("/admin/customers", { "GET /admin/customers": never });
    expect(
      await screen.findByRole("status", { name: "Loading customers" }, FIRST_RENDER),
    ).toBeInTheDocument();
  });

  it("says so when there is no customer yet", async () => {
    openConsole("/admin/customers", { "GET /admin/customers": () => listOf([]) });
    expect(await screen.findByText("No customers yet.")).toBeInTheDocument();
  });

  it("shows the API's message and retries on request", async () => {
    let calls = 0;
    openConsole("/admin/customers", {
      "GET /admin/customers": () =>
        ++calls === 1 ? fail(500, "Database unavailable") : listOf([customerFixture()]),
    });
    expect(await screen.findByRole("alert")).toHaveTextContent("Database unavailable");
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(within(await table()).getByRole("link", { name: "buyer@example.com" })).toBeInTheDocument();
  });

  it("lists customers with balance and state, each linking to their page", async () => {
    openConsole("/admin/customers", {
      "GET /admin/customers": () =>
        listOf([
          customerFixture(),
          customerFixture({
            id: "b",
            email: "gone@example.com",
            balance_gb: 0.25,
            disabled_at: "2026-11-21T10:00:00Z",
          }),
        ]),
    });
    const rows = within(await table())
      .getAllByRole("row")
      .slice(1);
    expect(
      rows.map((row) => [...row.querySelectorAll("td")].slice(0, 3).map((cell) => cell.textContent)),
    ).toEqual([
      ["buyer@example.com", "5 GB", "Active"],
      ["gone@example.com", "0.25 GB", "Disabled"],
    ]);
    expect(within(rows[0]!).getByRole("link")).toHaveAttribute(
      "href",
      "/admin/customers/3f0c6c8e-4c1a-4f7e-9d5b-7a1e2b3c4d5e",
    );
  });

  it("searches by e-mail on the server and keeps the search and page in the URL", async () => {
    const api = openConsole("/admin/customers?page=2", {
      "GET /admin/customers": (url) =>
        listOf([customerFixture()], 60, Number(url.searchParams.get("page") ?? 1)),
    });
    await table();
    expect(Object.fromEntries(api.to("GET", "/admin/customers")[0]!.url.searchParams)).toEqual({
      page: "2",
      per_page: "25",
    });
    expect(screen.getByText("26–50 of 60")).toBeInTheDocument();

    await userEvent.type(screen.getByRole("searchbox", { name: "Search by e-mail" }), "buyer{Enter}");
    await waitFor(() => expect(api.router.state.location.search).toBe("?email=buyer"));
    const last = api.to("GET", "/admin/customers").at(-1)!;
    expect(Object.fromEntries(last.url.searchParams)).toEqual({ page: "1", per_page: "25", email: "buyer" });

    await userEvent.click(await screen.findByRole("link", { name: "Next" }));
    await waitFor(() => expect(api.router.state.location.search).toBe("?email=buyer&page=2"));
  });

  it("says no e-mail matched a search that found nobody", async () => {
    openConsole("/admin/customers?email=nobody", { "GET /admin/customers": () => listOf([]) });
    expect(await screen.findByText("No customer's e-mail contains that.")).toBeInTheDocument();
  });
});
