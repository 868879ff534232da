import type { AutoTopupSettings } from "@bytetoll/contracts";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fail, ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { renderRoute } from "../../../test/render-route.tsx";

const settings = (changes: Partial<AutoTopupSettings> = {}): AutoTopupSettings => ({
  enabled: false,
  threshold_gb: 1,
  amount_usd: 50,
  monthly_cap_usd: 500,
  card: { brand: "visa", last4: "4242" },
  spent_this_month_usd: 0,
  failures: 0,
  ...changes,
});

function signedIn(balanceGb: number, routes: Parameters<typeof stubApi>[0]) {
  signInWithToken("topup-jwt");
  return stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /account/status": ok({ balance_gb: balanceGb, balance_bytes: balanceGb * 1e9 }),
    ...routes,
  });
}

/** Each test renders the whole app; on a busy 2-core machine that can take several seconds. */
const SLOW_MACHINE_MS = 20_000;

describe("the auto top-up line and dialog", () => {
  it(
    "says it is off, names a bad amount, and confirms what will be charged before turning it on",
    async () => {
      const api = signedIn(0.4, {
        "GET /settings/auto-topup": ok(settings()),
        "PUT /settings/auto-topup": (call) => ok(settings(call.body as Partial<AutoTopupSettings>)),
      });
      const user = userEvent.setup();
      renderRoute("/");
      expect(await screen.findByTestId("auto-topup-summary")).toHaveTextContent("Auto top-up: off");
      await user.click(screen.getByRole("button", { name: "Set up" }));
      const dialog = await screen.findByRole("dialog", { name: "Auto top-up" });
      expect(within(dialog).getByText("Card: Visa •••• 4242")).toBeInTheDocument();
      await user.click(within(dialog).getByRole("checkbox", { name: "Top up automatically" }));
      const amount = within(dialog).getByLabelText("Add");
      await user.clear(amount);
      await user.type(amount, "2");
      expect(within(dialog).getByText(/Enter an amount from \$3 to/)).toBeInTheDocument();
      expect(within(dialog).getByRole("button", { name: "Save" })).toBeDisabled();
      await user.clear(amount);
      await user.type(amount, "25");
      await user.click(within(dialog).getByRole("button", { name: "Save" }));
      expect(
        within(dialog).getByText(
          "Your Visa •••• 4242 will be charged $25 each time your balance falls below 1 GB, at most $500 per calendar month (UTC).",
        ),
      ).toBeInTheDocument();
      expect(within(dialog).getByText(/is already below 1 GB: \$25 may be charged/)).toBeInTheDocument();
      expect(api.callsTo("PUT", "/settings/auto-topup")).toHaveLength(0);
      await user.click(within(dialog).getByRole("button", { name: "Yes, turn on auto top-up" }));
      expect(await within(dialog).findByRole("status")).toHaveTextContent("Auto top-up saved");
      expect(api.callsTo("PUT", "/settings/auto-topup")[0]?.body).toEqual({
        enabled: true,
        threshold_gb: 1,
        amount_usd: 25,
        monthly_cap_usd: 500,
      });
      expect(screen.getByTestId("auto-topup-summary")).toHaveTextContent("Auto top-up: on below 1 GB, +$25");
    },
    SLOW_MACHINE_MS,
  );

  it(
    "cannot be turned on without a card, and shows the server's refusal",
    async () => {
      signedIn(5, {
        "GET /settings/auto-topup": ok(settings({ card: null })),
        "PUT /settings/auto-topup": fail(400, "monthly_cap_usd must be at least amount_usd"),
      });
      const user = userEvent.setup();
      renderRoute("/");
      await user.click(await screen.findByRole("button", { name: "Set up" }));
      const dialog = await screen.findByRole("dialog", { name: "Auto top-up" });
      expect(within(dialog).getByText("No card saved yet.")).toBeInTheDocument();
      expect(within(dialog).getByRole("checkbox", { name: "Top up automatically" })).toBeDisabled();
      expect(within(dialog).getByText("Add a card first.")).toBeInTheDocument();
      await user.click(within(dialog).getByRole("button", { name: "Save" }));
      expect(await within(dialog).findByRole("alert")).toHaveTextContent(
        "monthly_cap_usd must be at least amount_usd",
      );
    },
    SLOW_MACHINE_MS,
  );
});
