import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { STORAGE_KEYS } from "../../lib/storage-keys.ts";
import { ok, signInWithToken, stubApi, TEST_USER } from "../../test/api-stub.ts";
import { historyOf, orderFixture, pageOf } from "../../test/order-fixture.ts";
import { renderRoute } from "../../test/render-route.tsx";

const STEPS = ["Buy data or use your free GB", "Copy your proxy credentials", "Test the connection"];

function dashboard({ balanceGb = 1, orders = [orderFixture()] } = {}) {
  signInWithToken();
  stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /account/status": () => ok({ balance_gb: balanceGb, balance_bytes: balanceGb * 1e9 }),
    "GET /transactions": () => Response.json(pageOf(orders)),
    "GET /history": () => Response.json(historyOf(orders)),
    "GET /deals/latestv2": () => ok([]),
  });
  return renderRoute("/");
}

const checklist = () => screen.findByRole("region", { name: "Get started" });
const stepItem = (region: HTMLElement, label: string) =>
  within(region).getByText(label).closest("li") as HTMLElement;

describe("Get started checklist", () => {
  it("lists the three steps, none done, for a new account with its free GB untouched", async () => {
    dashboard();
    const region = await checklist();
    expect(within(region).getByText("0 of 3 done")).toBeInTheDocument();
    for (const label of STEPS)
      expect(within(stepItem(region, label)).getByLabelText("Not done")).toBeInTheDocument();
    expect(within(region).getByRole("link", { name: "Copy your proxy credentials" })).toHaveAttribute(
      "href",
      "/connect",
    );
  });

  it("ticks the first step once some of the free GB is used, or an order is paid", async () => {
    const used = dashboard({ balanceGb: 0.8 });
    let region = await checklist();
    expect(within(stepItem(region, STEPS[0] as string)).getByLabelText("Done")).toBeInTheDocument();
    used.unmount();

    dashboard({ balanceGb: 101, orders: [orderFixture({ payment_status: "paid" })] });
    region = await checklist();
    expect(within(region).getByText("1 of 3 done")).toBeInTheDocument();
    expect(within(stepItem(region, STEPS[0] as string)).getByLabelText("Done")).toBeInTheDocument();
  });

  it("ticks the steps the Connect page recorded in this browser", async () => {
    window.localStorage.setItem(STORAGE_KEYS.credentialsCopied, "true");
    dashboard();
    const region = await checklist();
    expect(within(stepItem(region, STEPS[1] as string)).getByLabelText("Done")).toBeInTheDocument();
    expect(within(stepItem(region, STEPS[2] as string)).getByLabelText("Not done")).toBeInTheDocument();
  });

  it("folds away and stays folded after a reload", async () => {
    const first = dashboard();
    const user = userEvent.setup();
    const region = await checklist();
    await user.click(within(region).getByRole("button", { name: /Get started/ }));
    expect(within(region).getByRole("button", { name: /Get started/ })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
    expect(within(region).getByRole("list", { hidden: true })).not.toBeVisible();
    expect(window.localStorage.getItem(STORAGE_KEYS.getStartedCollapsed)).toBe("true");
    first.unmount();

    dashboard();
    const again = await checklist();
    expect(within(again).getByRole("button", { name: /Get started/ })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
  });

  it("is gone once every step is done", async () => {
    window.localStorage.setItem(STORAGE_KEYS.credentialsCopied, "true");
    window.localStorage.setItem(STORAGE_KEYS.connectionTested, "true");
    dashboard({ balanceGb: 0.5 });
    // The balance and the history have both arrived: the checklist had all it needs to decide.
    await screen.findByText("Unpaid");
    await waitFor(() => expect(screen.getAllByText("0.5 GB").length).toBeGreaterThan(0));
    expect(screen.queryByRole("region", { name: "Get started" })).not.toBeInTheDocument();
  });
});
