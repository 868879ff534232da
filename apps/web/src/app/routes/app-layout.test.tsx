import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { STORAGE_KEYS } from "../../lib/storage-keys.ts";
import { ok, signInWithToken, stubApi, TEST_CONFIG, TEST_USER } from "../../test/api-stub.ts";
import { renderRoute } from "../../test/render-route.tsx";

function signedIn(overrides: Parameters<typeof stubApi>[0] = {}) {
  signInWithToken("session-jwt");
  return stubApi({ "GET /auth/session": ok(TEST_USER), ...overrides });
}

const mainNav = () => screen.getAllByRole("navigation", { name: "Main" })[0] as HTMLElement;

describe("dashboard layout", () => {
  it("lists the seven pages in order and marks only the exact page as current", async () => {
    signedIn();
    renderRoute("/usage");
    expect(await screen.findByRole("heading", { name: "Usage" })).toBeInTheDocument();
    const links = within(mainNav()).getAllByRole("link");
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["Buy Data", "/"],
      ["Connect to Proxies", "/connect"],
      ["Smart Routing", "/smart-routings"],
      ["Usage", "/usage"],
      ["Sub-users", "/subusers"],
      ["Webhooks", "/webhooks"],
      ["Team", "/team"],
    ]);
    expect(within(mainNav()).getByRole("link", { name: "Usage" })).toHaveAttribute("aria-current", "page");
    expect(within(mainNav()).getByRole("link", { name: "Buy Data" })).not.toHaveAttribute("aria-current");
  });

  it("opens each screen from the side navigation", async () => {
    signedIn();
    const { router } = renderRoute("/");
    expect(await screen.findByRole("heading", { name: "Buy Data" })).toBeInTheDocument();
    await userEvent.click(within(mainNav()).getByRole("link", { name: "Smart Routing" }));
    expect(await screen.findByRole("heading", { name: "Smart Routing", level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/smart-routings");
  });

  it("offers Skip to content as the first stop, on a solid dark chip, leading to the screen", async () => {
    signedIn();
    renderRoute("/usage");
    await screen.findByRole("heading", { name: "Usage" });
    await userEvent.tab();
    const skip = screen.getByRole("link", { name: "Skip to content" });
    expect(skip).toHaveFocus();
    expect(skip.className).toMatch(/\bbg-indigo-700\b/);
    expect(skip.className).toMatch(/\btext-white\b/);
    expect(skip.className).not.toMatch(/\bbg-white\b/);
    expect(document.querySelector(skip.getAttribute("href") ?? "")).toBeInstanceOf(HTMLElement);
  });

  it("shows the skeleton layout while the session initialises", async () => {
    signInWithToken();
    stubApi({ "GET /auth/session": () => new Promise<Response>(() => {}) });
    renderRoute("/");
    expect(await screen.findByTestId("layout-skeleton")).toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "Main" })).not.toBeInTheDocument();
  });

  it("sends anonymous visitors to /login from every page but /connect", async () => {
    stubApi();
    for (const path of ["/", "/usage", "/smart-routings", "/checkout"]) {
      const { router, unmount } = renderRoute(path);
      await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
      unmount();
    }
  });

  it("lets anonymous visitors see /connect with a Sign In icon", async () => {
    stubApi();
    const { router } = renderRoute("/connect");
    expect(await screen.findByRole("heading", { name: "Connect to Proxies" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/connect");
    expect(screen.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/login");
    expect(screen.queryByRole("button", { name: "Account menu" })).not.toBeInTheDocument();
  });

  it("links Docs externally and opens support through the hidden link", async () => {
    signedIn();
    renderRoute("/");
    const docs = await screen.findByRole("link", { name: "Docs" });
    expect(docs).toHaveAttribute("href", TEST_CONFIG.docs_url);
    expect(docs).toHaveAttribute("target", "_blank");
    const hidden = screen.getByTestId("support-link");
    expect(hidden).toHaveAttribute("href", TEST_CONFIG.support_url);
    const clicked = vi.fn((event: MouseEvent) => event.preventDefault());
    hidden.addEventListener("click", clicked);
    await userEvent.click(screen.getByRole("button", { name: "Support" }));
    expect(clicked).toHaveBeenCalledTimes(1);
  });

  it("shows the profile with e-mail and refund address", async () => {
    signedIn({
      "GET /auth/session": ok({ ...TEST_USER, refund_address: "0xRefund000000000000000000000000000000abcd" }),
    });
    const user = userEvent.setup();
    renderRoute("/");
    await user.click(await screen.findByRole("button", { name: "Account menu" }));
    await user.click(await screen.findByRole("menuitem", { name: "Profile" }));
    const dialog = await screen.findByRole("dialog", { name: "Profile" });
    expect(within(dialog).getByText(TEST_USER.email)).toBeInTheDocument();
    expect(
      within(dialog).getByDisplayValue("0xRefund000000000000000000000000000000abcd"),
    ).toBeInTheDocument();
  });

  it("logs out: tells the server, clears storage and the cache, and goes to /login", async () => {
    const api = signedIn({ "POST /auth/logout": ok() });
    const user = userEvent.setup();
    const { router, queryClient } = renderRoute("/");
    window.localStorage.setItem(STORAGE_KEYS.stickySession, "true");
    queryClient.setQueryData(["credentials", "latest"], { username: "u", password: "p" });
    queryClient.setQueryData(["account", "status"], { balance_gb: 3 });
    await user.click(await screen.findByRole("button", { name: "Account menu" }));
    await user.click(await screen.findByRole("menuitem", { name: "Logout" }));

    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(api.callsTo("POST", "/auth/logout")[0]?.headers.get("Authorization")).toBe("Bearer session-jwt");
    expect(window.localStorage.length).toBe(0);
    expect(queryClient.getQueryData(["credentials", "latest"])).toBeUndefined();
    expect(queryClient.getQueryData(["account", "status"])).toBeUndefined();
    const sessions = queryClient.getQueriesData({ queryKey: ["auth", "session"] });
    expect(sessions.filter(([, data]) => data !== undefined)).toEqual([]);
    expect(await screen.findByRole("heading", { name: "Login / Sign Up" })).toBeInTheDocument();
  });

  it("logs out locally even when the server cannot be reached", async () => {
    signedIn({ "POST /auth/logout": () => Promise.reject(new TypeError("Failed to fetch")) });
    const user = userEvent.setup();
    const { router } = renderRoute("/");
    await user.click(await screen.findByRole("button", { name: "Account menu" }));
    await user.click(await screen.findByRole("menuitem", { name: "Logout" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(window.localStorage.getItem(STORAGE_KEYS.appToken)).toBeNull();
  });

  it("opens the mobile menu and closes it on Escape and on navigation", async () => {
    signedIn();
    const user = userEvent.setup();
    const { router } = renderRoute("/");
    await user.click(await screen.findByRole("button", { name: "Open menu" }));
    const drawer = await screen.findByTestId("mobile-sidebar");
    expect(within(drawer).getByRole("link", { name: "Usage" })).toBeInTheDocument();
    fireEvent.keyDown(drawer, { key: "Escape" });
    await waitFor(() => expect(screen.queryByTestId("mobile-sidebar")).not.toBeInTheDocument());

    await user.click(screen.getByRole("button", { name: "Open menu" }));
    await user.click(
      within(await screen.findByTestId("mobile-sidebar")).getByRole("link", { name: "Usage" }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe("/usage"));
    await waitFor(() => expect(screen.queryByTestId("mobile-sidebar")).not.toBeInTheDocument());
  });
});

describe("the operator console link", () => {
  it("links the console for an operator's session without asking the admin API", async () => {
    const api = signedIn({ "GET /auth/session": ok({ ...TEST_USER, is_operator: true }) });
    renderRoute("/usage");
    expect(await screen.findByRole("heading", { name: "Usage" })).toBeInTheDocument();
    expect(await within(mainNav()).findByRole("link", { name: "Operator console" })).toHaveAttribute(
      "href",
      "/admin",
    );
    expect(api.callsTo("GET", "/admin/me")).toHaveLength(0);
  });

  it("shows a customer no console link and makes no call the server would refuse", async () => {
    const api = signedIn();
    renderRoute("/usage");
    expect(await screen.findByRole("heading", { name: "Usage" })).toBeInTheDocument();
    expect(within(mainNav()).queryByRole("link", { name: "Operator console" })).not.toBeInTheDocument();
    expect(api.callsTo("GET", "/admin/me")).toHaveLength(0);
  });
});

describe("token expiry", () => {
  it("signs the user out when the token reaches its 10 s expiry margin", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ["setTimeout", "clearTimeout", "Date"] });
    signInWithToken("short-jwt", 40);
    stubApi({ "GET /auth/session": ok(TEST_USER) });
    const { router } = renderRoute("/usage");
    expect(await screen.findByRole("heading", { name: "Usage" })).toBeInTheDocument();
    vi.advanceTimersByTime(25_000);
    expect(router.state.location.pathname).toBe("/usage");
    vi.advanceTimersByTime(6_000);
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(window.localStorage.getItem(STORAGE_KEYS.appToken)).toBeNull();
  });
});
