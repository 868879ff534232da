import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fail, stubApi } from "../../../test/api-stub.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import { listOf, openConsole } from "../admin-stub.ts";

// The first render of a file loads the lazy route modules, which takes seconds on a busy machine.
const FIRST_RENDER = { timeout: 30_000 };

describe("the operator's console gate", { timeout: 40_000 }, () => {
  it("shows a customer a clear 'Not an operator' page when the API answers 403, with the way back", async () => {
    const api = openConsole("/admin/customers", {
      "GET /admin/me": () => fail(403, "Operators only"),
      "GET /admin/customers": () => listOf([]),
    });
    expect(await screen.findByRole("heading", { name: "Not an operator" }, FIRST_RENDER)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go back to Dashboard" })).toHaveAttribute("href", "/");
    expect(screen.queryByRole("navigation", { name: "Main" })).not.toBeInTheDocument();
    // Nothing of the console's data is asked for.
    expect(api.to("GET", "/admin/customers")).toHaveLength(0);
  });

  it("says the same on a server without operators (404), not a crash", async () => {
    openConsole("/admin", { "GET /admin/me": () => fail(404, "Not found") });
    expect(await screen.findByRole("heading", { name: "Not an operator" })).toBeInTheDocument();
  });

  it("lets an operator in, with the console's own menu", async () => {
    openConsole("/admin/customers", { "GET /admin/customers": () => listOf([]) });
    const nav = await screen.findByRole("navigation", { name: "Main" });
    for (const name of ["Overview", "Customers", "Orders", "Deals", "Payouts", "Network", "Audit log"])
      expect(nav).toContainElement(screen.getAllByRole("link", { name })[0]!);
    expect(screen.getAllByRole("link", { name: "Customers" })[0]).toHaveAttribute("aria-current", "page");
  });

  it("tells an operator when the console has no page at an address", async () => {
    openConsole("/admin/no-such-page");
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to the Overview" })).toHaveAttribute("href", "/admin");
  });

  it("sends a signed-out visitor to the login page without asking who they are", async () => {
    const api = stubApi();
    const { router } = renderRoute("/admin/deals");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(api.callsTo("GET", "/admin/me")).toHaveLength(0);
  });
});
