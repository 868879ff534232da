import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fail, ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import {
  LOW_BALANCE_INVALID,
  LOW_BALANCE_LOAD_FAILED,
  LOW_BALANCE_SAVED,
} from "./low-balance-alert-form.tsx";

const profile = (threshold: number | null) => ok({ ...TEST_USER, low_balance_threshold_gb: threshold });

function signedIn(routes: Parameters<typeof stubApi>[0]) {
  signInWithToken("alert-jwt");
  return stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /account/status": ok({ balance_gb: 5, balance_bytes: 5e9 }),
    "GET /account/api-token": ok({ token: "bt_0123456789abcdefghijklmnopqrstuvwxyz" }),
    ...routes,
  });
}

async function openAlert() {
  const user = userEvent.setup();
  renderRoute("/usage");
  await user.click(await screen.findByRole("button", { name: "Account menu" }));
  await user.click(await screen.findByRole("menuitem", { name: "Profile" }));
  const dialog = await screen.findByRole("dialog", { name: "Profile" });
  return { user, dialog };
}

/** Each test renders the whole app; on a busy 2-core machine that can take several seconds. */
const SLOW_MACHINE_MS = 20_000;

describe("the low-balance alert in Profile", () => {
  it(
    "shows the saved threshold (1 GB by default) and saves a new one",
    async () => {
      const api = signedIn({
        "GET /account/profile": profile(1),
        "PATCH /account/profile": (call) =>
          profile((call.body as { low_balance_threshold_gb: number }).low_balance_threshold_gb),
      });
      const { user, dialog } = await openAlert();
      const toggle = await within(dialog).findByRole("checkbox", { name: "Low-balance e-mail" });
      const amount = within(dialog).getByLabelText("When my balance falls below");
      expect(toggle).toBeChecked();
      expect(amount).toHaveValue(1);
      const save = within(dialog).getAllByRole("button", { name: "Save" }).at(-1)!;
      expect(save).toBeDisabled();

      await user.clear(amount);
      await user.type(amount, "2.5");
      await user.click(save);
      expect(await within(dialog).findByText(LOW_BALANCE_SAVED)).toBeInTheDocument();
      expect(api.callsTo("PATCH", "/account/profile").map((call) => call.body)).toEqual([
        { low_balance_threshold_gb: 2.5 },
      ]);
      expect(save).toBeDisabled();
    },
    SLOW_MACHINE_MS,
  );

  it(
    "turns the alert off with null and shows it off when saved so",
    async () => {
      const api = signedIn({ "GET /account/profile": profile(1), "PATCH /account/profile": profile(null) });
      const { user, dialog } = await openAlert();
      await user.click(await within(dialog).findByRole("checkbox", { name: "Low-balance e-mail" }));
      expect(within(dialog).getByLabelText("When my balance falls below")).toBeDisabled();
      await user.click(within(dialog).getAllByRole("button", { name: "Save" }).at(-1)!);
      expect(await within(dialog).findByText(LOW_BALANCE_SAVED)).toBeInTheDocument();
      expect(api.callsTo("PATCH", "/account/profile")[0]?.body).toEqual({ low_balance_threshold_gb: null });
    },
    SLOW_MACHINE_MS,
  );

  it(
    "starts unchecked when the alert is off",
    async () => {
      signedIn({ "GET /account/profile": profile(null) });
      const { dialog } = await openAlert();
      expect(await within(dialog).findByRole("checkbox", { name: "Low-balance e-mail" })).not.toBeChecked();
      expect(within(dialog).getByLabelText("When my balance falls below")).toHaveValue(1);
    },
    SLOW_MACHINE_MS,
  );

  it(
    "refuses an amount out of range before sending, and shows the server's refusal",
    async () => {
      const api = signedIn({
        "GET /account/profile": profile(1),
        "PATCH /account/profile": fail(400, "low_balance_threshold_gb must be at most 100000."),
      });
      const { user, dialog } = await openAlert();
      const amount = await within(dialog).findByLabelText("When my balance falls below");
      const save = within(dialog).getAllByRole("button", { name: "Save" }).at(-1)!;
      await user.clear(amount);
      await user.type(amount, "0");
      await user.click(save);
      const form = within(dialog).getByTestId("low-balance-alert");
      expect(await within(form).findByRole("alert")).toHaveTextContent(LOW_BALANCE_INVALID);
      expect(api.callsTo("PATCH", "/account/profile")).toHaveLength(0);

      await user.clear(amount);
      await user.type(amount, "7");
      await user.click(save);
      expect(
        await within(dialog).findByText("low_balance_threshold_gb must be at most 100000."),
      ).toBeInTheDocument();
    },
    SLOW_MACHINE_MS,
  );

  it(
    "says so when the threshold cannot be loaded",
    async () => {
      signedIn({ "GET /account/profile": fail(500, "Internal server error") });
      const { dialog } = await openAlert();
      expect(
        await within(dialog).findByText(LOW_BALANCE_LOAD_FAILED, {}, { timeout: 10_000 }),
      ).toBeInTheDocument();
    },
    SLOW_MACHINE_MS,
  );
});
