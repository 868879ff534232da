import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ok, signInWithToken, stubApi, TEST_CONFIG, TEST_USER } from "../../test/api-stub.ts";
import { renderRoute } from "../../test/render-route.tsx";

describe("not-found screen", () => {
  it("offers the way to login for a visitor", async () => {
    stubApi();
    renderRoute("/no/such/page");
    expect(await screen.findByRole("heading", { name: "Page Not Found" })).toBeInTheDocument();
    expect(screen.getByText("404")).toBeInTheDocument();
    expect(screen.getByText("The page you're looking for doesn't exist.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Login" })).toHaveAttribute("href", "/login");
    expect(screen.queryByRole("link", { name: "Go back to Dashboard" })).not.toBeInTheDocument();

    const footer = screen.getByRole("contentinfo");
    const terms = await within(footer).findByRole("link", { name: "Terms" });
    expect(terms).toHaveAttribute("href", TEST_CONFIG.terms_url);
    expect(terms).toHaveAttribute("target", "_blank");
    expect(within(footer).getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("target", "_blank");
  });

  it("offers the way back to the dashboard for a signed-in user", async () => {
    signInWithToken();
    stubApi({ "GET /auth/session": ok(TEST_USER) });
    renderRoute("/settings/whatever");
    expect(await screen.findByRole("link", { name: "Go back to Dashboard" })).toHaveAttribute("href", "/");
    expect(screen.queryByRole("link", { name: "Go to Login" })).not.toBeInTheDocument();
  });
});
