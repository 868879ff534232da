import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { STORAGE_KEYS } from "../../../lib/storage-keys.ts";
import { fail, ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { renderRoute } from "../../../test/render-route.tsx";

const DISABLED = "This account is disabled. Contact support at ops@example.com";

async function expectNotice() {
  const notice = await screen.findByTestId("account-disabled");
  expect(screen.getByRole("heading", { name: "Account disabled" })).toBeInTheDocument();
  expect(notice).toHaveTextContent(DISABLED);
  expect(screen.getByRole("link", { name: "ops@example.com" })).toHaveAttribute(
    "href",
    "mailto:ops@example.com",
  );
  expect(screen.getByRole("button", { name: "Sign out" })).toBeInTheDocument();
}

describe("a disabled account", () => {
  it("sees the notice in place of the dashboard, not a balance or Buy More", async () => {
    signInWithToken();
    stubApi({ "GET /auth/session": fail(403, DISABLED), "GET /account/status": fail(403, DISABLED) });
    renderRoute("/");
    await expectNotice();
    expect(screen.queryByTestId("balance-badge")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Buy More/ })).not.toBeInTheDocument();
    // The token stays, so a reload tells the same thing rather than offering a fresh sign-in.
    expect(window.localStorage.getItem(STORAGE_KEYS.appToken)).not.toBeNull();
  });

  it("sees it on an open page as soon as any call is refused", async () => {
    signInWithToken();
    stubApi({
      "GET /auth/session": ok(TEST_USER),
      "GET /account/status": fail(403, DISABLED),
    });
    renderRoute("/connect");
    await expectNotice();
  });

  it("sees it after following a login link instead of silently landing on /login", async () => {
    stubApi({ "POST /auth/magic/verify": fail(403, DISABLED) });
    const { router } = renderRoute("/magic/auth?magic_credential=link-token");
    await expectNotice();
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(screen.queryByText(/Send Me a Login Link/)).not.toBeInTheDocument();
  });
});
