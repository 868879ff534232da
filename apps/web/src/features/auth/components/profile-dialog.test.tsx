import type { SessionUser } from "@bytetoll/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { readStoredToken } from "../../../lib/token-storage.ts";
import { fail, ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { renderRoute } from "../../../test/render-route.tsx";

const API_TOKEN = "bt_0123456789abcdefghijklmnopqrstuvwxyz";

function signedIn(routes: Parameters<typeof stubApi>[0] = {}, user: SessionUser = TEST_USER) {
  signInWithToken("session-jwt");
  return stubApi({
    "GET /auth/session": ok(user),
    "GET /account/api-token": ok({ token: API_TOKEN }),
    ...routes,
  });
}

async function openProfile() {
  const user = userEvent.setup();
  const view = renderRoute("/");
  await user.click(await screen.findByRole("button", { name: "Account menu" }));
  await user.click(await screen.findByRole("menuitem", { name: "Profile" }));
  const dialog = await screen.findByRole("dialog", { name: "Profile" });
  return { ...view, user, dialog };
}

/** A reply the test releases by hand, to look at the pending state in between. */
function deferred() {
  let release: (response: Response) => void = () => undefined;
  const reply = new Promise<Response>((resolve) => {
    release = resolve;
  });
  return { reply: () => reply, release: (response: Response) => release(response) };
}

describe("profile dialog", () => {
  it("shows the e-mail, the saved refund address and the API token masked after 15 characters", async () => {
    signedIn({}, { ...TEST_USER, refund_address: "bc1qsaved" });
    const { dialog } = await openProfile();
    expect(within(dialog).getByText(TEST_USER.email)).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Refund address")).toHaveValue("bc1qsaved");
    const token = await within(dialog).findByLabelText("API token");
    expect(token).toHaveValue(`${API_TOKEN.slice(0, 15)}${"•".repeat(API_TOKEN.length - 15)}`);
    expect(within(dialog).queryByText(API_TOKEN)).toBeNull();
  });

  it("copies the whole API token", async () => {
    signedIn();
    const { user, dialog } = await openProfile();
    await within(dialog).findByLabelText("API token");
    // user-event installs its own clipboard stub on setup(); read back what was written to it.
    await user.click(within(dialog).getByRole("button", { name: "Copy API token" }));
    expect(await within(dialog).findByText("Copied!")).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(API_TOKEN);
  });

  it("saves the refund address with a pending state, a toast and the session cache updated in place", async () => {
    const save = deferred();
    const api = signedIn({ "PATCH /account/profile": save.reply });
    const { user, dialog, queryClient } = await openProfile();
    const input = within(dialog).getByLabelText("Refund address");
    expect(within(dialog).getByRole("button", { name: "Save" })).toBeDisabled();

    await user.type(input, "  0xNew:addr_1  ");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    const pending = await within(dialog).findByRole("button", { name: "Saving…" });
    expect(pending).toBeDisabled();
    expect(api.callsTo("PATCH", "/account/profile").map((call) => call.body)).toEqual([
      { refund_address: "  0xNew:addr_1  " },
    ]);

    save.release(ok({ ...TEST_USER, refund_address: "0xNew:addr_1" }));
    expect(await screen.findByText("Refund address saved")).toBeInTheDocument();
    expect(input).toHaveValue("0xNew:addr_1");
    expect(within(dialog).getByRole("button", { name: "Save" })).toBeDisabled();
    expect(queryClient.getQueryData<SessionUser>(["auth", "session", "session-jwt"])?.refund_address).toBe(
      "0xNew:addr_1",
    );
    // Updated from the reply, not by asking the server again.
    expect(api.callsTo("GET", "/auth/session")).toHaveLength(1);
  });

  it("submits with Enter and shows the server's message when it refuses", async () => {
    const message = "refund_address may contain only letters, digits and the characters : . _ -";
    const api = signedIn({ "PATCH /account/profile": () => fail(400, message) });
    const { user, dialog, queryClient } = await openProfile();
    const input = within(dialog).getByLabelText("Refund address");
    await user.type(input, "bad address{Enter}");

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(api.callsTo("PATCH", "/account/profile")).toHaveLength(1);
    expect(input).toHaveValue("bad address");
    expect(within(dialog).getByRole("button", { name: "Save" })).toBeEnabled();
    expect(
      queryClient.getQueryData<SessionUser>(["auth", "session", "session-jwt"])?.refund_address,
    ).toBeNull();
  });

  it("asks before signing out everywhere; Cancel changes nothing", async () => {
    const api = signedIn({ "POST /auth/logout-all": ok() });
    const { user, dialog } = await openProfile();
    await user.click(within(dialog).getByRole("button", { name: "Sign out everywhere" }));
    const confirm = within(dialog).getByRole("group", { name: "Confirm sign out everywhere" });
    expect(within(confirm).getByRole("button", { name: "Yes, sign out everywhere" })).toHaveFocus();
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));

    expect(within(dialog).queryByRole("group", { name: "Confirm sign out everywhere" })).toBeNull();
    expect(api.callsTo("POST", "/auth/logout-all")).toHaveLength(0);
    expect(readStoredToken()?.token).toBe("session-jwt");
  });

  it("signs out everywhere, then logs out normally and lands on /login", async () => {
    const api = signedIn({ "POST /auth/logout-all": ok(), "POST /auth/logout": fail(401, "Unauthorized") });
    const { user, dialog, router } = await openProfile();
    await user.click(within(dialog).getByRole("button", { name: "Sign out everywhere" }));
    // Keyboard: the confirmation has focus, Enter answers it.
    await user.keyboard("{Enter}");

    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(api.callsTo("POST", "/auth/logout-all")[0]?.headers.get("Authorization")).toBe(
      "Bearer session-jwt",
    );
    const order = api.calls
      .map((call) => `${call.method} ${call.path}`)
      .filter((call) => call.includes("logout"));
    expect(order).toEqual(["POST /auth/logout-all", "POST /auth/logout"]);
    expect(readStoredToken()).toBeNull();
    expect(await screen.findByRole("heading", { name: "Login / Sign Up" })).toBeInTheDocument();
  });

  it("stays signed in and says why when signing out everywhere fails", async () => {
    const api = signedIn({ "POST /auth/logout-all": () => fail(429, "Too many requests") });
    const { user, dialog, router } = await openProfile();
    await user.click(within(dialog).getByRole("button", { name: "Sign out everywhere" }));
    await user.click(within(dialog).getByRole("button", { name: "Yes, sign out everywhere" }));

    expect(await screen.findByText("Too many requests")).toBeInTheDocument();
    expect(api.callsTo("POST", "/auth/logout")).toHaveLength(0);
    expect(router.state.location.pathname).toBe("/");
    expect(readStoredToken()?.token).toBe("session-jwt");
    expect(within(dialog).getByRole("button", { name: "Sign out everywhere" })).toBeInTheDocument();
  });

  it("closes with Escape", async () => {
    signedIn();
    const { user } = await openProfile();
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Profile" })).toBeNull());
  });
});
