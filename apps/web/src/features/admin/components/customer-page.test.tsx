import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fail, ok } from "../../../test/api-stub.ts";
import { customerDetailFixture, never, openConsole } from "../admin-stub.ts";

// The first render of a file loads the lazy route modules, which takes seconds on a busy machine.
const FIRST_RENDER = { timeout: 30_000 };

const ID = "3f0c6c8e-4c1a-4f7e-9d5b-7a1e2b3c4d5e";
const PATH = `/admin/customers/${ID}`;

beforeEach(() => {
  // jsdom has no layout; Recharts' ResponsiveContainer only needs the observer to exist.
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

describe("a customer's page", { timeout: 40_000 }, () => {
  it("shows a skeleton while the customer loads", async () => {
    openConsole(PATH, { [`GET ${PATH}`]: never });
    expect(await screen.findByRole("status", { name: "Loading customer" }, FIRST_RENDER)).toBeInTheDocument();
  });

  it("shows the API's refusal for an unknown customer", async () => {
    openConsole(PATH, { [`GET ${PATH}`]: () => fail(404, "No such customer") });
    expect(await screen.findByRole("alert")).toHaveTextContent("No such customer");
  });

  it("shows balance, sessions, token, credentials, usage, ledger and orders", async () => {
    openConsole(PATH, { [`GET ${PATH}`]: () => ok(customerDetailFixture()) });
    expect(await screen.findByRole("heading", { name: /buyer@example.com/ })).toHaveTextContent("Active");
    expect(screen.getByTestId("customer-balance")).toHaveTextContent("5 GB");
    const account = screen.getByLabelText("Account");
    expect(within(account).getByText("buyer-x1")).toBeInTheDocument();
    expect(within(account).getByText("None")).toBeInTheDocument();
    expect(within(account).getByText("2")).toBeInTheDocument();
    expect(
      within(screen.getByRole("table", { name: "Usage per day" })).getByText("1.5 GB"),
    ).toBeInTheDocument();
    expect(within(screen.getByRole("table", { name: "Ledger" })).getByText("+1 GB")).toBeInTheDocument();
    expect(within(screen.getByRole("table", { name: "Orders" })).getByRole("link")).toHaveAttribute(
      "href",
      "/admin/orders/7d1f2a3b-0000-4000-8000-000000000001",
    );
  });

  it("says so when the customer has no traffic, ledger or orders", async () => {
    const empty = customerDetailFixture({
      usage_by_day: [{ day: "2026-11-21", bytes: 0, gb: 0, requests: 0 }],
      ledger: { data: [], page: 1, per_page: 20, total: 0 },
      orders: { data: [], page: 1, per_page: 20, total: 0 },
      subusers: {
        data: [],
        page: 1,
        per_page: 20,
        total: 0,
        main_credentials: { bytes: 0, gb: 0, requests: 0 },
        deleted: { bytes: 0, gb: 0, requests: 0 },
      },
    });
    openConsole(PATH, { [`GET ${PATH}`]: () => ok(empty) });
    expect(await screen.findByText("No traffic in the last 30 days.")).toBeInTheDocument();
    expect(screen.getByText("No balance changes yet.")).toBeInTheDocument();
    expect(screen.getByText("No orders yet.")).toBeInTheDocument();
    expect(screen.getByText("No sub-users.")).toBeInTheDocument();
  });

  it("shows the customer's sub-users with their use and limit, and the main credentials' traffic", async () => {
    openConsole(PATH, { [`GET ${PATH}`]: () => ok(customerDetailFixture()) });
    const table = await screen.findByRole("table", { name: "Sub-users" });
    const row = within(table).getAllByRole("row")[1]!;
    expect(row).toHaveTextContent("crawler");
    expect(row).toHaveTextContent("suabcdefghij");
    expect(row).toHaveTextContent("500 MB of 2 GB per day (25%)");
    expect(row).toHaveTextContent("Disabled");
    expect(row).toHaveTextContent("750 MB");
    expect(screen.getByTestId("subuser-traffic-split")).toHaveTextContent(
      "Last 30 days: main credentials 70 KB (7 requests).",
    );
    expect(screen.getByRole("heading", { name: "Sub-users (1)" })).toBeInTheDocument();
  });

  it("credits GB after a confirmation that says exactly what will happen, with one Idempotency-Key per dialog", async () => {
    let balance = 5;
    const api = openConsole(PATH, {
      [`GET ${PATH}`]: () => ok(customerDetailFixture({ balance_gb: balance, balance_bytes: balance * 1e9 })),
      [`POST ${PATH}/credit`]: (_url, body) => {
        balance += (body as { gb: number }).gb;
        return Response.json({ success: true, message: "Credited 2.5 GB to buyer@example.com", data: {} });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Credit or debit" }));
    const dialog = await screen.findByRole("dialog", { name: "Credit or debit buyer@example.com" });
    await user.type(within(dialog).getByLabelText("GB"), "2.5");
    expect(dialog).toHaveTextContent("Adds 2.5 GB to buyer@example.com's balance: 5 GB becomes 7.5 GB.");

    // A note is required before anything is sent.
    await user.click(within(dialog).getByRole("button", { name: "Credit" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Write a note");
    expect(api.to("POST", `${PATH}/credit`)).toHaveLength(0);

    await user.type(within(dialog).getByLabelText("Note"), "goodwill");
    await user.click(within(dialog).getByRole("button", { name: "Credit" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    const [call] = api.to("POST", `${PATH}/credit`);
    expect(call!.body).toEqual({ gb: 2.5, note: "goodwill" });
    expect(call!.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText("Credited 2.5 GB to buyer@example.com")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId("customer-balance")).toHaveTextContent("7.5 GB"));
  });

  it("debits with a negative amount and shows the API's refusal inside the dialog", async () => {
    const api = openConsole(PATH, {
      [`GET ${PATH}`]: () => ok(customerDetailFixture()),
      [`POST ${PATH}/credit`]: () => fail(409, "The balance would go below zero"),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Credit or debit" }));
    const dialog = await screen.findByRole("dialog");
    await user.click(within(dialog).getByRole("radio", { name: "Debit (take GB)" }));
    await user.type(within(dialog).getByLabelText("GB"), "9");
    await user.type(within(dialog).getByLabelText("Note"), "abuse");
    expect(dialog).toHaveTextContent("Takes 9 GB from buyer@example.com's balance: 5 GB becomes -4 GB.");
    await user.click(within(dialog).getByRole("button", { name: "Debit" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("The balance would go below zero");
    expect(api.to("POST", `${PATH}/credit`)[0]!.body).toEqual({ gb: -9, note: "abuse" });
  });

  it("disables the account after saying what the customer will notice, then offers Enable", async () => {
    let disabledAt: string | null = null;
    const api = openConsole(PATH, {
      [`GET ${PATH}`]: () => ok(customerDetailFixture({ disabled_at: disabledAt })),
      [`POST ${PATH}/disable`]: () => {
        disabledAt = "2026-11-21T10:00:00.000Z";
        return Response.json({ success: true, message: "Disabled buyer@example.com", data: {} });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Disable account" }));
    const dialog = await screen.findByRole("dialog", { name: "Disable account" });
    expect(dialog).toHaveTextContent(
      "buyer@example.com's API calls get 403 and the gateway refuses their proxy requests with 403 account_disabled",
    );
    // Cancel sends nothing.
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(api.to("POST", `${PATH}/disable`)).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Disable account" }));
    const again = await screen.findByRole("dialog", { name: "Disable account" });
    await user.type(within(again).getByLabelText("Note (optional)"), "chargebacks");
    await user.click(within(again).getByRole("button", { name: "Disable" }));
    expect(await screen.findByRole("button", { name: "Enable account" })).toBeInTheDocument();
    expect(api.to("POST", `${PATH}/disable`)[0]!.body).toEqual({ note: "chargebacks" });
    expect(screen.getByRole("heading", { name: /buyer@example.com/ })).toHaveTextContent("Disabled");
  });

  it("names the sessions and credentials that revoking and regenerating will end", async () => {
    openConsole(PATH, { [`GET ${PATH}`]: () => ok(customerDetailFixture()) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Revoke sessions" }));
    expect(await screen.findByRole("dialog")).toHaveTextContent("(2 active sessions)");
    await user.keyboard("{Escape}");
    await user.click(screen.getByRole("button", { name: "Regenerate credentials" }));
    expect(await screen.findByRole("dialog")).toHaveTextContent("(now buyer-x1)");
  });
});
