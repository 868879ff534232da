import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fail } from "../../../test/api-stub.ts";
import { auditFixture, listOf, never, openConsole } from "../admin-stub.ts";

// The first render of a file loads the lazy route modules, which takes seconds on a busy machine.
const FIRST_RENDER = { timeout: 30_000 };

describe("the Audit log page", { timeout: 40_000 }, () => {
  it("shows a skeleton while it loads", async () => {
    openConsole("/admin/audit", { "GET /admin/audit": never });
    expect(
      await screen.findByRole("status", { name: "Loading audit log" }, FIRST_RENDER),
    ).toBeInTheDocument();
  });

  it("says when no operator has acted yet", async () => {
    openConsole("/admin/audit", { "GET /admin/audit": () => listOf([]) });
    expect(await screen.findByText("No operator has acted yet.")).toBeInTheDocument();
  });

  it("shows the API's message when it cannot load", async () => {
    openConsole("/admin/audit", {
      "GET /admin/audit": () => fail(400, "actor must be at most 254 characters"),
    });
    expect(await screen.findByRole("alert")).toHaveTextContent("actor must be at most 254 characters");
  });

  it("shows who did what to whom, with the note and the state before and after", async () => {
    openConsole("/admin/audit", { "GET /admin/audit": () => listOf([auditFixture()]) });
    const table = await screen.findByRole("table", { name: "Audit log" });
    const row = within(table).getAllByRole("row")[1]!;
    expect(row).toHaveTextContent("ops@example.com");
    expect(row).toHaveTextContent("customer.disable");
    expect(row).toHaveTextContent("chargebacks");
    expect(within(row).getByRole("link")).toHaveAttribute(
      "href",
      "/admin/customers/3f0c6c8e-4c1a-4f7e-9d5b-7a1e2b3c4d5e",
    );
    expect(row).toHaveTextContent('"disabled_at": "2026-11-21T10:00:00.000Z"');
    // The customer by e-mail, not by id.
    expect(within(row).getByRole("link")).toHaveTextContent("carol@example.com");
    expect(row).not.toHaveTextContent("3f0c6c8e-4c1a");
  });

  it("names an order by its short number and customer", async () => {
    const order = "9d2e4c6d-1111-4000-8000-000000000003";
    openConsole("/admin/audit", {
      "GET /admin/audit": () =>
        listOf([
          auditFixture({
            action: "order.mark_paid",
            subject_type: "order",
            subject_id: order,
            subject_label: "dave@example.com",
          }),
        ]),
    });
    const table = await screen.findByRole("table", { name: "Audit log" });
    const link = within(table).getByRole("link", { name: "Order 9d2e4c6d · dave@example.com" });
    expect(link).toHaveAttribute("href", `/admin/orders/${order}`);
  });

  it("filters by who, action and subject on the server, and pages with the filters kept", async () => {
    const api = openConsole("/admin/audit", { "GET /admin/audit": () => listOf([auditFixture()], 30) });
    await screen.findByRole("table", { name: "Audit log" });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Who"), "ops@example.com");
    await user.type(screen.getByLabelText("Action"), "customer.disable");
    await user.click(screen.getByRole("button", { name: "Apply filters" }));
    await waitFor(() =>
      expect(Object.fromEntries(api.to("GET", "/admin/audit").at(-1)!.url.searchParams)).toEqual({
        page: "1",
        per_page: "25",
        actor: "ops@example.com",
        action: "customer.disable",
      }),
    );
    await user.click(await screen.findByRole("link", { name: "Next" }));
    await waitFor(() =>
      expect(api.router.state.location.search).toBe(
        "?actor=ops%40example.com&action=customer.disable&page=2",
      ),
    );
    await waitFor(() => expect(api.to("GET", "/admin/audit").at(-1)!.url.searchParams.get("page")).toBe("2"));
  });
});
