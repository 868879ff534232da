import type { AdminOrder } from "@bytetoll/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fail, ok } from "../../../test/api-stub.ts";
import { adminOrderFixture, listOf, never, openConsole } from "../admin-stub.ts";

// The first render of a file loads the lazy route modules, which takes seconds on a busy machine.
const FIRST_RENDER = { timeout: 30_000 };

const ORDER_ID = "7d1f2a3b-0000-4000-8000-000000000001";
const ORDER_PATH = `/admin/orders/${ORDER_ID}`;

describe("the Orders page", { timeout: 40_000 }, () => {
  it("shows a skeleton, then says when there is no order at all", async () => {
    openConsole("/admin/orders", { "GET /admin/orders": never });
    expect(await screen.findByRole("status", { name: "Loading orders" }, FIRST_RENDER)).toBeInTheDocument();
  });

  it("says no order matches filters that found nothing", async () => {
    openConsole("/admin/orders?status=failed", { "GET /admin/orders": () => listOf([]) });
    expect(await screen.findByText("No order matches these filters.")).toBeInTheDocument();
  });

  it("shows the API's message when the list cannot load", async () => {
    openConsole("/admin/orders", { "GET /admin/orders": () => fail(400, "to must not be before from") });
    expect(await screen.findByRole("alert")).toHaveTextContent("to must not be before from");
  });

  it("filters by status, method, provider and days on the server, and keeps them in the URL", async () => {
    const api = openConsole("/admin/orders?page=3", {
      "GET /admin/orders": () => listOf([adminOrderFixture()], 80, 3),
    });
    const table = await screen.findByRole("table", { name: "Orders" });
    expect(within(table).getByRole("link")).toHaveAttribute("href", ORDER_PATH);
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("Status"), "paid");
    await user.selectOptions(screen.getByLabelText("Method"), "card");
    await user.selectOptions(screen.getByLabelText("Provider"), "stripe");
    await user.type(screen.getByLabelText("From"), "2026-11-01");
    await user.click(screen.getByRole("button", { name: "Apply filters" }));
    await waitFor(() =>
      expect(api.router.state.location.search).toBe(
        "?status=paid&method=card&provider=stripe&from=2026-11-01",
      ),
    );
    await waitFor(() =>
      expect(Object.fromEntries(api.to("GET", "/admin/orders").at(-1)!.url.searchParams)).toEqual({
        page: "1",
        per_page: "25",
        status: "paid",
        method: "card",
        provider: "stripe",
        from: "2026-11-01",
      }),
    );
  });
});

describe("an order's page", { timeout: 40_000 }, () => {
  const detail = (status: AdminOrder["payment_status"] = "waiting") =>
    ok({
      ...adminOrderFixture({ payment_status: status }),
      events: [
        {
          at: "2026-11-21T14:30:00.000Z",
          kind: "created",
          summary: "Order created: 5 GB for $15",
          detail: null,
        },
      ],
    });

  it("shows the order's events, oldest first", async () => {
    openConsole(ORDER_PATH, { [`GET ${ORDER_PATH}`]: () => detail() });
    expect(await screen.findByText("Order created: 5 GB for $15")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "buyer@example.com" })).toHaveAttribute(
      "href",
      "/admin/customers/3f0c6c8e-4c1a-4f7e-9d5b-7a1e2b3c4d5e",
    );
  });

  it("marks a waiting sandbox order paid after saying what it credits", async () => {
    let status: AdminOrder["payment_status"] = "waiting";
    const api = openConsole(ORDER_PATH, {
      [`GET ${ORDER_PATH}`]: () => detail(status),
      [`POST ${ORDER_PATH}/mark-paid`]: () => {
        status = "paid";
        return Response.json({
          success: true,
          message: "Order paid: 5 GB credited",
          data: adminOrderFixture(),
        });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Mark paid" }));
    const dialog = await screen.findByRole("dialog", { name: "Mark sandbox order paid" });
    expect(dialog).toHaveTextContent("buyer@example.com is credited 5 GB at once");
    await user.click(within(dialog).getByRole("button", { name: "Mark paid" }));
    expect(await screen.findByText("Order paid: 5 GB credited")).toBeInTheDocument();
    expect(api.to("POST", `${ORDER_PATH}/mark-paid`)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole("button", { name: "Mark paid" })).not.toBeInTheDocument());
  });

  it("shows a refused expiry inside the dialog", async () => {
    openConsole(ORDER_PATH, {
      [`GET ${ORDER_PATH}`]: () => detail(),
      [`POST ${ORDER_PATH}/expire`]: () => fail(409, "Only a waiting order can expire"),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Expire" }));
    const dialog = await screen.findByRole("dialog", { name: "Expire order" });
    await user.click(within(dialog).getByRole("button", { name: "Expire" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Only a waiting order can expire");
  });

  it("offers no action on a paid order", async () => {
    openConsole(ORDER_PATH, { [`GET ${ORDER_PATH}`]: () => detail("paid") });
    await screen.findByText("Order created: 5 GB for $15");
    expect(screen.queryByRole("button", { name: "Mark paid" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Expire" })).not.toBeInTheDocument();
  });
});
