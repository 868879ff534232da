import { encodeDealId } from "@bytetoll/contracts";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { STORAGE_KEYS } from "../../../lib/storage-keys.ts";
import { fail, ok, signInWithToken, stubApi, TEST_CONFIG, TEST_USER } from "../../../test/api-stub.ts";
import { renderRoute } from "../../../test/render-route.tsx";

const emailField = () => screen.getByPlaceholderText("Enter your email");
const sendButton = () => screen.getByRole("button", { name: "Send Me a Login Link" });
const FORMAT_MESSAGE = "Please enter a valid email address.";

async function openLogin(path = "/login", state?: unknown) {
  const view = renderRoute(path, { state });
  await screen.findByPlaceholderText("Enter your email");
  return view;
}

function loginApi(overrides: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    "POST /magic/check": ok({ orderId: null }),
    "POST /auth/login": ok(undefined, "Login link sent"),
    ...overrides,
  });
}

describe("login screen", () => {
  it("shows the heading, the field and the footer links", async () => {
    stubApi();
    await openLogin();
    expect(screen.getByRole("heading", { name: "Login / Sign Up" })).toBeInTheDocument();
    expect(emailField()).toHaveAccessibleName("Email address");
    const terms = await screen.findByRole("link", { name: "Terms" });
    expect(terms).toHaveAttribute("href", TEST_CONFIG.terms_url);
    expect(terms).toHaveAttribute("target", "_blank");
    expect(terms.getAttribute("rel")).toContain("noopener");
    const privacy = screen.getByRole("link", { name: "Privacy Policy" });
    expect(privacy).toHaveAttribute("href", TEST_CONFIG.privacy_url);
    expect(privacy).toHaveAttribute("target", "_blank");
  });

  it("offers the free credit at the configured price of 1 GB when s=cc", async () => {
    stubApi({ "GET /config": ok({ ...TEST_CONFIG, price_per_gb_usd: 2.5 }) });
    await openLogin("/login?s=cc");
    expect(await screen.findByRole("heading", { name: "Claim Your Free $2.50 Credit" })).toBeInTheDocument();
  });

  it("falls back to $3 for the free-credit heading while the configuration loads", async () => {
    stubApi({ "GET /config": () => new Promise<Response>(() => {}) });
    await openLogin("/login?s=cc");
    expect(screen.getByRole("heading", { name: "Claim Your Free $3 Credit" })).toBeInTheDocument();
  });

  it("shows the format message only 500 ms after typing stops", async () => {
    stubApi();
    await openLogin();
    vi.useFakeTimers();
    fireEvent.change(emailField(), { target: { value: "not-an" } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(emailField(), { target: { value: "not-an-email" } });
    act(() => vi.advanceTimersByTime(499));
    expect(screen.queryByText(FORMAT_MESSAGE)).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText(FORMAT_MESSAGE)).toBeInTheDocument();
    expect(emailField()).toHaveAttribute("aria-invalid", "true");

    fireEvent.change(emailField(), { target: { value: "fine@example.com" } });
    expect(screen.queryByText(FORMAT_MESSAGE)).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(600));
    expect(screen.queryByText(FORMAT_MESSAGE)).not.toBeInTheDocument();
  });

  it("shows the format message at once when the field loses focus", async () => {
    stubApi();
    await openLogin();
    vi.useFakeTimers();
    fireEvent.change(emailField(), { target: { value: "a..b@example.com" } });
    fireEvent.blur(emailField());
    expect(screen.getByText(FORMAT_MESSAGE)).toBeInTheDocument();
  });

  it("says the e-mail is required when the field is emptied and left", async () => {
    stubApi();
    await openLogin();
    fireEvent.change(emailField(), { target: { value: "a@" } });
    fireEvent.change(emailField(), { target: { value: "" } });
    fireEvent.blur(emailField());
    expect(screen.getByText("Email is required.")).toBeInTheDocument();
    expect(emailField()).toHaveAttribute("aria-invalid", "true");
  });

  it("says the e-mail is required 500 ms after the field is emptied", async () => {
    stubApi();
    await openLogin();
    vi.useFakeTimers();
    fireEvent.change(emailField(), { target: { value: "a@example.com" } });
    fireEvent.change(emailField(), { target: { value: "" } });
    act(() => vi.advanceTimersByTime(499));
    expect(screen.queryByText("Email is required.")).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText("Email is required.")).toBeInTheDocument();
  });

  it("keeps the button disabled while the e-mail is empty or invalid", async () => {
    stubApi();
    await openLogin();
    expect(sendButton()).toBeDisabled();
    fireEvent.change(emailField(), { target: { value: "   " } });
    expect(sendButton()).toBeDisabled();
    fireEvent.change(emailField(), { target: { value: "someone@" } });
    expect(sendButton()).toBeDisabled();
    fireEvent.change(emailField(), { target: { value: `${"a".repeat(250)}@x.io` } });
    expect(sendButton()).toBeDisabled();
    fireEvent.change(emailField(), { target: { value: "someone@example.com" } });
    expect(sendButton()).toBeEnabled();
  });

  it("says the e-mail is required when an empty form is submitted", async () => {
    const api = stubApi();
    await openLogin();
    fireEvent.submit(emailField().closest("form") as HTMLFormElement);
    expect(screen.getByText("Email is required.")).toBeInTheDocument();
    expect(api.callsTo("POST", "/magic/check")).toHaveLength(0);
  });

  it("is disabled while submitting and shows the sent state after success", async () => {
    let release: (response: Response) => void = () => {};
    const api = loginApi({
      "POST /auth/login": () =>
        new Promise<Response>((resolve) => {
          release = resolve;
        }),
    });
    await openLogin();
    fireEvent.change(emailField(), { target: { value: " buyer@example.com " } });
    fireEvent.click(sendButton());
    await waitFor(() => expect(api.callsTo("POST", "/auth/login")).toHaveLength(1));
    expect(sendButton()).toBeDisabled();
    act(() => release(ok(undefined, "Login link sent")));

    expect(await screen.findByText("Login link sent to buyer@example.com")).toBeInTheDocument();
    expect(screen.getByText("No link? Check your spam folder.")).toBeInTheDocument();
    const [check] = api.callsTo("POST", "/magic/check");
    expect(check?.body).toEqual({ email: "buyer@example.com", addFreeCredit: false });
    // X-Skip-Auth is an instruction to our client, never sent to the server.
    expect(check?.headers.has("X-Skip-Auth")).toBe(false);
    expect(api.callsTo("POST", "/auth/login")[0]?.body).toEqual({
      email: "buyer@example.com",
      addFreeCredit: false,
    });
  });

  it("sends the claim flag, the decoded deal and the whole-dollar amount to both calls", async () => {
    const di = encodeDealId(42);
    const api = loginApi();
    await openLogin(`/login?s=cc&di=${di}&usd=24.6`);
    fireEvent.change(emailField(), { target: { value: "deal@example.com" } });
    fireEvent.click(sendButton());
    await screen.findByText("Login link sent to deal@example.com");
    const expected = { email: "deal@example.com", addFreeCredit: true, dealId: 42, purchaseAmount: 25 };
    expect(api.callsTo("POST", "/magic/check")[0]?.body).toEqual(expected);
    expect(api.callsTo("POST", "/auth/login")[0]?.body).toEqual(expected);
  });

  it("ignores a deal id that does not decode and an amount that is not a positive number", async () => {
    const api = loginApi();
    await openLogin("/login?di=not-ours!&usd=-5");
    fireEvent.change(emailField(), { target: { value: "plain@example.com" } });
    fireEvent.click(sendButton());
    await screen.findByText("Login link sent to plain@example.com");
    expect(api.callsTo("POST", "/magic/check")[0]?.body).toEqual({
      email: "plain@example.com",
      addFreeCredit: false,
    });
  });

  it("signs in without a deal that is no longer live (an old shared link), keeping the person's e-mail", async () => {
    const unavailable = "This deal is no longer available. Please check back again soon.";
    const api = loginApi({
      "POST /magic/check": (call) =>
        (call.body as { dealId?: number }).dealId === undefined
          ? ok({ orderId: null })
          : fail(404, unavailable),
    });
    await openLogin(`/login?di=${encodeDealId(7)}`);
    fireEvent.change(emailField(), { target: { value: "late@example.com" } });
    fireEvent.click(sendButton());
    await screen.findByText("Login link sent to late@example.com");
    expect(api.callsTo("POST", "/magic/check").map((call) => call.body)).toEqual([
      { email: "late@example.com", addFreeCredit: false, dealId: 7 },
      { email: "late@example.com", addFreeCredit: false },
    ]);
    expect(api.callsTo("POST", "/auth/login")[0]?.body).toEqual({
      email: "late@example.com",
      addFreeCredit: false,
    });
  });

  it("says the account could not be prepared when /magic/check fails", async () => {
    const api = loginApi({ "POST /magic/check": fail(500, "Internal server error") });
    await openLogin();
    fireEvent.change(emailField(), { target: { value: "buyer@example.com" } });
    fireEvent.click(sendButton());
    expect(await screen.findByText("Unable to prepare account for login.")).toBeInTheDocument();
    expect(api.callsTo("POST", "/auth/login")).toHaveLength(0);
  });

  it("shows the server's message on failure and returns to stale when the e-mail is edited", async () => {
    loginApi({
      "POST /auth/login": fail(429, "Too many login requests. Please wait a few minutes and try again."),
    });
    await openLogin();
    fireEvent.change(emailField(), { target: { value: "buyer@example.com" } });
    fireEvent.click(sendButton());
    const message = await screen.findByText(
      "Too many login requests. Please wait a few minutes and try again.",
    );
    expect(message).toHaveAttribute("role", "alert");
    expect(sendButton()).toBeEnabled();
    fireEvent.change(emailField(), { target: { value: "buyer2@example.com" } });
    expect(screen.queryByText(/Too many login requests/)).not.toBeInTheDocument();
  });

  it("shows Login failed when the failure has no message", async () => {
    loginApi({ "POST /auth/login": new Response("oops", { status: 502 }) });
    await openLogin();
    fireEvent.change(emailField(), { target: { value: "buyer@example.com" } });
    fireEvent.click(sendButton());
    expect(await screen.findByText("Login failed")).toBeInTheDocument();
  });

  it("sends prefilled credentials from navigation state and removes them from history", async () => {
    const api = loginApi();
    const { router } = await openLogin("/login?s=cc", { username: "anon-user", password: "anon-pass" });
    await waitFor(() => expect(router.state.location.state).toBeNull());
    expect(router.state.location.search).toBe("?s=cc");
    expect(router.state.historyAction).toBe("REPLACE");
    fireEvent.change(emailField(), { target: { value: "new@example.com" } });
    fireEvent.click(sendButton());
    await screen.findByText("Login link sent to new@example.com");
    expect(api.callsTo("POST", "/magic/check")[0]?.body).toEqual({
      email: "new@example.com",
      addFreeCredit: true,
      username: "anon-user",
      password: "anon-pass",
    });
    // Kept in this browser for the link's callback, which must present them again.
    const kept = JSON.parse(window.localStorage.getItem(STORAGE_KEYS.pendingCredentialClaim) ?? "null");
    expect(kept).toMatchObject({ username: "anon-user", password: "anon-pass" });
  });

  it("keeps no credentials for a callback when the link was not sent", async () => {
    loginApi({
      "POST /auth/login": fail(429, "Too many login requests. Please wait a few minutes and try again."),
    });
    await openLogin("/login", { username: "anon-user", password: "anon-pass" });
    fireEvent.change(emailField(), { target: { value: "new@example.com" } });
    fireEvent.click(sendButton());
    await screen.findByText(/Too many login requests/);
    expect(window.localStorage.getItem(STORAGE_KEYS.pendingCredentialClaim)).toBeNull();
  });
});

describe("login screen for a signed-in user", () => {
  it("shows a skeleton while the session initialises", async () => {
    signInWithToken();
    stubApi({ "GET /auth/session": () => new Promise<Response>(() => {}) });
    renderRoute("/login");
    expect(await screen.findByTestId("login-skeleton")).toBeInTheDocument();
    expect(screen.queryByPlaceholderText("Enter your email")).not.toBeInTheDocument();
  });

  it("goes to the dashboard", async () => {
    signInWithToken();
    stubApi({ "GET /auth/session": ok(TEST_USER) });
    const { router } = renderRoute("/login");
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  it("goes to checkout with di and usd when both are given", async () => {
    signInWithToken();
    stubApi({ "GET /auth/session": ok(TEST_USER) });
    const { router } = renderRoute("/login?di=abcdefgh&usd=25&s=cc");
    await waitFor(() => expect(router.state.location.pathname).toBe("/checkout"));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      di: "abcdefgh",
      usd: "25",
    });
  });

  it("goes to the dashboard when only one of di and usd is given", async () => {
    signInWithToken();
    stubApi({ "GET /auth/session": ok(TEST_USER) });
    const { router } = renderRoute("/login?usd=25");
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  it("stays on the form and forgets the token when the session call fails", async () => {
    signInWithToken();
    stubApi({ "GET /auth/session": fail(401, "Unauthorized") });
    renderRoute("/login");
    await screen.findByPlaceholderText("Enter your email");
    await waitFor(() => expect(window.localStorage.getItem(STORAGE_KEYS.appToken)).toBeNull());
  });
});
