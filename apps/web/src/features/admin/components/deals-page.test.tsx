import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fail, ok } from "../../../test/api-stub.ts";
import { dealFixture, never, openConsole } from "../admin-stub.ts";

// The first render of a file loads the lazy route modules, which takes seconds on a busy machine.
const FIRST_RENDER = { timeout: 30_000 };

describe("the Deals page", { timeout: 40_000 }, () => {
  it("shows a skeleton, then the empty state", async () => {
    openConsole("/admin/deals", { "GET /admin/deals": never });
    expect(await screen.findByRole("status", { name: "Loading deals" }, FIRST_RENDER)).toBeInTheDocument();
  });

  it("invites the operator to create the first deal", async () => {
    openConsole("/admin/deals", { "GET /admin/deals": () => ok([]) });
    expect(await screen.findByText("No deals yet. Create a flash sale or a group buy.")).toBeInTheDocument();
  });

  it("shows an error with Retry", async () => {
    openConsole("/admin/deals", { "GET /admin/deals": () => fail(500, "Internal error") });
    expect(await screen.findByRole("alert")).toHaveTextContent("Internal error");
    expect(screen.getByRole("button", { name: "Retry" })).toBeInTheDocument();
  });

  it("shows each group buy's progress, and edits only deals that have not started", async () => {
    openConsole("/admin/deals", {
      "GET /admin/deals": () =>
        ok([
          dealFixture(),
          dealFixture({ id: "p1", deal_title: "Next week", status: "pending", progress_percent: 0 }),
        ]),
    });
    const bar = await screen.findByRole("progressbar", { name: "Spring group buy progress" });
    expect(bar).toHaveAttribute("aria-valuenow", "2");
    const row = bar.closest("tr") as HTMLElement;
    expect(within(row).getByText(/\$300 · 3 buyers/)).toBeInTheDocument();
    expect(screen.getAllByRole("button", { name: /^Edit/ })).toHaveLength(1);
    expect(screen.getByRole("button", { name: "Edit Next week" })).toBeInTheDocument();
  });

  it("checks a new deal with the API's own rules, then creates it", async () => {
    const api = openConsole("/admin/deals", {
      "GET /admin/deals": () => ok([]),
      "POST /admin/deals": () => Response.json({ success: true, data: dealFixture() }, { status: 201 }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "New deal" }));
    const dialog = await screen.findByRole("dialog", { name: "New deal" });
    await user.selectOptions(within(dialog).getByLabelText("Type"), "flash_sale");
    await user.type(within(dialog).getByLabelText("Title"), "Black Friday");
    await user.type(within(dialog).getByLabelText("Price (USD per GB)"), "1.2");
    await user.type(within(dialog).getByLabelText("Target (GB)"), "500");
    await user.click(within(dialog).getByRole("button", { name: "Create deal" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent(
      "A flash sale's Target (GB) must be at least 1,000 (one unit).",
    );
    expect(api.to("POST", "/admin/deals")).toHaveLength(0);
    // Editing the field takes the stale complaint away.
    await user.type(within(dialog).getByLabelText("Target (GB)"), "0");
    expect(within(dialog).queryByRole("alert")).toBeNull();

    await user.clear(within(dialog).getByLabelText("Target (GB)"));
    await user.type(within(dialog).getByLabelText("Target (GB)"), "2000");
    await user.click(within(dialog).getByRole("button", { name: "Create deal" }));
    await waitFor(() => expect(api.to("POST", "/admin/deals")).toHaveLength(1));
    expect(api.to("POST", "/admin/deals")[0]!.body).toMatchObject({
      deal_type: "flash_sale",
      deal_title: "Black Friday",
      deal_price: 1.2,
      deal_target_gb: 2000,
    });
    expect(await screen.findByText("Created “Black Friday”")).toBeInTheDocument();
  });

  it("refuses a flash sale above the list price before asking, and shows the API's refusals in words", async () => {
    const api = openConsole("/admin/deals", {
      "GET /admin/deals": () => ok([]),
      "POST /admin/deals": () => fail(400, "deal_title is required"),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "New deal" }, FIRST_RENDER));
    const dialog = await screen.findByRole("dialog", { name: "New deal" });
    await user.selectOptions(within(dialog).getByLabelText("Type"), "flash_sale");
    await user.type(within(dialog).getByLabelText("Title"), "Too dear");
    await user.type(within(dialog).getByLabelText("Price (USD per GB)"), "5");
    await user.type(within(dialog).getByLabelText("Target (GB)"), "2000");
    await user.click(within(dialog).getByRole("button", { name: "Create deal" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent(
      "Deal price must be between $0.01 and the list price $3.00 per GB.",
    );
    expect(api.to("POST", "/admin/deals")).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText("Price (USD per GB)"));
    await user.type(within(dialog).getByLabelText("Price (USD per GB)"), "2");
    await user.click(within(dialog).getByRole("button", { name: "Create deal" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Enter the title.");
  });

  it("edits a pending deal with PATCH", async () => {
    const api = openConsole("/admin/deals", {
      "GET /admin/deals": () => ok([dealFixture({ id: "p1", deal_title: "Next week", status: "pending" })]),
      "PATCH /admin/deals/p1": () => ok(dealFixture()),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Edit Next week" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit “Next week”" });
    const price = within(dialog).getByLabelText("Price (USD per GB)");
    await user.clear(price);
    await user.type(price, "0.9");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(api.to("PATCH", "/admin/deals/p1")).toHaveLength(1));
    expect(api.to("PATCH", "/admin/deals/p1")[0]!.body).toMatchObject({
      deal_price: 0.9,
      deal_title: "Next week",
    });
  });

  it("cancels a deal after saying its deposits become refunds", async () => {
    const api = openConsole("/admin/deals", {
      "GET /admin/deals": () => ok([dealFixture()]),
      "POST /admin/deals/dJx9/cancel": () => ok(dealFixture({ status: "cancelled" })),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Cancel Spring group buy" }));
    const dialog = await screen.findByRole("dialog", { name: "Cancel “Spring group buy”" });
    expect(dialog).toHaveTextContent("The 3 deposits ($300) become refunds in the payout queue.");
    await user.click(within(dialog).getByRole("button", { name: "Cancel deal" }));
    await waitFor(() => expect(api.to("POST", "/admin/deals/dJx9/cancel")).toHaveLength(1));
  });
});
