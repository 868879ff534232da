import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { STORAGE_KEYS } from "../../../lib/storage-keys.ts";
import { fail, ok, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { renderRoute } from "../../../test/render-route.tsx";

const exp = () => Math.floor(Date.now() / 1000) + 3600;

function verifyingApi(token = "app-jwt", orderId: string | null = null) {
  return stubApi({
    "POST /auth/magic/verify": ok({
      token,
      exp: exp(),
      email: TEST_USER.email,
      id: TEST_USER.id,
      order_id: orderId,
    }),
    "GET /auth/session": ok(TEST_USER),
  });
}

const keepClaim = (until = Date.now() + 60_000) =>
  window.localStorage.setItem(
    STORAGE_KEYS.pendingCredentialClaim,
    JSON.stringify({ username: "btanon12345", password: "anon-pass", until }),
  );

describe("magic-link callback", () => {
  it("exchanges the credential, stores the token, verifies it and goes home", async () => {
    const api = verifyingApi();
    const { router } = renderRoute("/magic/auth?magic_credential=link-token");
    expect(await screen.findByTestId("layout-skeleton")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));

    const [verify] = api.callsTo("POST", "/auth/magic/verify");
    expect(verify?.body).toEqual({ access_token: "link-token" });
    expect(verify?.headers.has("Authorization")).toBe(false);
    expect(api.callsTo("GET", "/auth/session")[0]?.headers.get("Authorization")).toBe("Bearer app-jwt");
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.appToken) ?? "null")).toMatchObject({
      token: "app-jwt",
    });
    // The credential is not left behind in the history entry.
    expect(router.state.historyAction).toBe("REPLACE");
  });

  it("presents the credentials kept when this browser asked for the link, then forgets them", async () => {
    keepClaim();
    const api = verifyingApi();
    const { router } = renderRoute("/magic/auth?magic_credential=link-token");
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(api.callsTo("POST", "/auth/magic/verify")[0]?.body).toEqual({
      access_token: "link-token",
      username: "btanon12345",
      password: "anon-pass",
    });
    expect(window.localStorage.getItem(STORAGE_KEYS.pendingCredentialClaim)).toBeNull();
  });

  it("presents no credentials kept longer than a link lives", async () => {
    keepClaim(Date.now() - 1);
    const api = verifyingApi();
    const { router } = renderRoute("/magic/auth?magic_credential=link-token");
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(api.callsTo("POST", "/auth/magic/verify")[0]?.body).toEqual({ access_token: "link-token" });
  });

  it("goes to the checkout of the order the sign-in made", async () => {
    verifyingApi("app-jwt", "0b7e0c52-7d43-4a43-9d1e-3f5c2a1b9e10");
    const { router } = renderRoute("/magic/auth?magic_credential=link-token");
    await waitFor(() => expect(router.state.location.pathname).toBe("/checkout"));
    expect(router.state.location.search).toBe("?order_id=0b7e0c52-7d43-4a43-9d1e-3f5c2a1b9e10");
  });

  it("goes to the order's checkout when the link carries an order id", async () => {
    verifyingApi();
    const { router } = renderRoute("/magic/auth/order/ord_42?magic_credential=link-token");
    await waitFor(() => expect(router.state.location.pathname).toBe("/checkout"));
    expect(router.state.location.search).toBe("?order_id=ord_42");
  });

  it("goes silently to /login when the link is refused", async () => {
    const api = stubApi({
      "POST /auth/magic/verify": fail(401, "This login link is invalid or has expired."),
    });
    const { router } = renderRoute("/magic/auth?magic_credential=used-token");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(window.localStorage.getItem(STORAGE_KEYS.appToken)).toBeNull();
    expect(api.callsTo("GET", "/auth/session")).toHaveLength(0);
    expect(screen.queryByText(/invalid or has expired/)).not.toBeInTheDocument();
  });

  it("goes to /login and drops the token when the session check fails", async () => {
    stubApi({
      "POST /auth/magic/verify": ok({
        token: "bad-jwt",
        exp: exp(),
        email: TEST_USER.email,
        id: TEST_USER.id,
      }),
      "GET /auth/session": fail(401, "Unauthorized"),
    });
    const { router } = renderRoute("/magic/auth?magic_credential=link-token");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(window.localStorage.getItem(STORAGE_KEYS.appToken)).toBeNull();
  });

  it("goes to /login without calling the server when there is no credential", async () => {
    const api = stubApi();
    const { router } = renderRoute("/magic/auth/order/ord_42");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(api.callsTo("POST", "/auth/magic/verify")).toHaveLength(0);
  });

  it("spends the single-use link once even under StrictMode's double effects", async () => {
    const api = verifyingApi();
    const { router } = renderRoute("/magic/auth?magic_credential=once", { strictMode: true });
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(api.callsTo("POST", "/auth/magic/verify")).toHaveLength(1);
  });
});
