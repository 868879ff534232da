import { DEALS_EMPTY, DEALS_LOAD_FAILED, encodeDealId } from "@bytetoll/contracts";
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fail, ok, signInWithToken, stubApi, TEST_CONFIG, TEST_USER } from "../../../test/api-stub.ts";
import { dealFixture } from "../../../test/deal-fixture.ts";
import { createdSockets, lastSocket } from "../../../test/fake-socket.ts";
import { pageOf } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import { latestDealsQueryOptions } from "../api/get-latest-deals.ts";

vi.mock("socket.io-client", () => import("../../../test/fake-socket.ts"));

let tokenCount = 0;
beforeEach(() => {
  createdSockets.length = 0;
  tokenCount += 1;
});

const FLASH = encodeDealId(11);
const GROUP = encodeDealId(12);
const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";

function dashboard(routes: Parameters<typeof stubApi>[0], user = TEST_USER) {
  signInWithToken(`deals-jwt-${tokenCount}`);
  return stubApi({
    "GET /auth/session": ok(user),
    "GET /account/status": ok({ balance_gb: 1, balance_bytes: 1e9 }),
    "GET /transactions": Response.json(pageOf([])),
    ...routes,
  });
}

const groupBuy = (overrides = {}) =>
  dealFixture({
    id: GROUP,
    deal_type: "group_buy",
    deal_title: "Group buy: 5,000 GB at $1",
    deal_price: 1,
    deal_reserved_gb: 1200,
    deal_target_gb: 5000,
    ...overrides,
  });

const card = async (title: string) => (await screen.findByRole("article", { name: title })) as HTMLElement;

describe("Promotions", () => {
  it("invites to check back when there are no deals, and says so when they cannot be loaded", async () => {
    dashboard({ "GET /deals/latestv2": ok([]) });
    const first = renderRoute("/");
    expect(await screen.findByText(DEALS_EMPTY)).toBeInTheDocument();
    first.unmount();
    dashboard({ "GET /deals/latestv2": fail(500, "Internal server error") });
    renderRoute("/");
    expect(await screen.findByText(DEALS_LOAD_FAILED)).toBeInTheDocument();
  });

  it("shows each deal's status: countdowns, Activated, Expired DD-MM (UTC end), Cancelled", async () => {
    const now = Date.now();
    dashboard({
      "GET /deals/latestv2": ok([
        dealFixture({
          id: encodeDealId(1),
          deal_title: "Live",
          deal_end_time: new Date(now + 90 * 60_000 + 5_000).toISOString(),
        }),
        dealFixture({
          id: encodeDealId(2),
          deal_title: "Soon",
          status: "pending",
          deal_start_time: new Date(now + 2 * 86_400_000 + 3_600_000 + 1_000).toISOString(),
          deal_end_time: new Date(now + 4 * 86_400_000).toISOString(),
        }),
        dealFixture({ id: encodeDealId(3), deal_title: "Done", status: "activated" }),
        dealFixture({
          id: encodeDealId(4),
          deal_title: "Over",
          status: "expired",
          deal_end_time: "2026-11-03T23:30:00Z",
        }),
        dealFixture({ id: encodeDealId(5), deal_title: "Off", status: "cancelled" }),
      ]),
    });
    renderRoute("/");
    const status = async (title: string) => within(await card(title)).getByTestId("deal-status").textContent;
    expect(await status("Live")).toMatch(/^Ends in 01:(30:0\d|29:5\d)$/);
    expect(await status("Soon")).toMatch(/^Starts in 2d (01:00:0\d|00:59:5\d)$/);
    expect(await status("Done")).toBe("Activated");
    expect(await status("Over")).toBe("Expired 03-11");
    expect(await status("Off")).toBe("Cancelled");
    expect(within(await card("Live")).getByTestId("deal-progress")).toHaveTextContent("1,000 GB / 5,000 GB");
  });

  it("flash sale: a whole quantity of at least 1, non-numbers ignored, Buy disabled at 0, linking to checkout", async () => {
    dashboard({ "GET /deals/latestv2": ok([dealFixture({ id: FLASH, deal_title: "Flash" })]) });
    renderRoute("/");
    const flash = await card("Flash");
    const quantity = within(flash).getByLabelText(/Quantity/);
    const buy = () => within(flash).getByRole(quantityIsZero ? "button" : "link", { name: "Buy" });
    let quantityIsZero = false;
    expect(buy()).toHaveAttribute("href", `/checkout?di=${FLASH}&usd=500`);
    expect(within(flash).getByRole("button", { name: "Fewer" })).toBeDisabled();
    await userEvent.click(within(flash).getByRole("button", { name: "More" }));
    expect(quantity).toHaveValue("2");
    expect(buy()).toHaveAttribute("href", `/checkout?di=${FLASH}&usd=1000`);
    await userEvent.type(quantity, "x-");
    expect(quantity).toHaveValue("2");
    await userEvent.clear(quantity);
    quantityIsZero = true;
    expect(buy()).toBeDisabled();
    quantityIsZero = false;
    await userEvent.type(quantity, "3");
    expect(buy()).toHaveAttribute("href", `/checkout?di=${FLASH}&usd=1500`);
  });

  it("flash sale: never more than is left, whole units only, and Sold out without Buy", async () => {
    dashboard({
      "GET /deals/latestv2": ok([
        dealFixture({ id: FLASH, deal_title: "Flash", deal_reserved_gb: 2000, deal_target_gb: 5000 }),
        dealFixture({
          id: encodeDealId(13),
          deal_title: "Gone",
          deal_reserved_gb: 5000,
          deal_target_gb: 5000,
        }),
      ]),
    });
    renderRoute("/");
    const flash = await card("Flash");
    const quantity = within(flash).getByLabelText(/Quantity/);
    expect(within(flash).getByTestId("quantity-hint")).toHaveTextContent("3 left");
    await userEvent.clear(quantity);
    await userEvent.type(quantity, "999999");
    expect(quantity).toHaveValue("3");
    expect(within(flash).getByRole("link", { name: "Buy" })).toHaveAttribute(
      "href",
      `/checkout?di=${FLASH}&usd=1500`,
    );
    expect(within(flash).getByRole("button", { name: "More" })).toBeDisabled();

    await userEvent.clear(quantity);
    await userEvent.type(quantity, "1.5");
    expect(quantity).toHaveValue("1.5");
    expect(within(flash).getByTestId("quantity-hint")).toHaveTextContent("Whole units only");
    expect(within(flash).getByRole("button", { name: "Buy" })).toBeDisabled();

    const gone = await card("Gone");
    expect(within(gone).getByText("Sold out")).toBeInTheDocument();
    expect(within(gone).queryByRole("link", { name: "Buy" })).not.toBeInTheDocument();
    expect(within(gone).queryByRole("button", { name: "Buy" })).not.toBeInTheDocument();
  });

  it("group buy: deposit of 100 by default, Continue to checkout, the user's deposit, Continue disabled below 1", async () => {
    dashboard({
      "GET /deals/latestv2": ok([groupBuy()]),
      [`GET /deals/${GROUP}/deposits`]: ok({ total_deposit: 250 }),
    });
    renderRoute("/");
    const group = await card("Group buy: 5,000 GB at $1");
    expect(within(group).getByRole("link", { name: "Continue" })).toHaveAttribute(
      "href",
      `/checkout?di=${GROUP}&usd=100`,
    );
    expect(await within(group).findByTestId("your-deposit")).toHaveTextContent("$250");
    const amount = within(group).getByLabelText("Deposit (USD)");
    await userEvent.clear(amount);
    await userEvent.type(amount, "0");
    expect(within(group).getByRole("button", { name: "Continue" })).toBeDisabled();
  });

  it("withdraws to the refund address by default, asks for an address when blank, and shows the server's refusal", async () => {
    let replies = [
      () =>
        Response.json(
          {
            success: false,
            message: "Please enter a valid wallet address (0x… or a Solana address)",
            errors: { wallet_address: ["Please enter a valid wallet address (0x… or a Solana address)"] },
          },
          { status: 422 },
        ),
      () => ok(undefined, "Your deposit of $250.00 will be sent."),
    ];
    const api = dashboard(
      {
        "GET /deals/latestv2": ok([groupBuy()]),
        [`GET /deals/${GROUP}/deposits`]: ok({ total_deposit: 250 }),
        [`POST /deals/${GROUP}/withdraw`]: () => {
          const [next, ...rest] = replies;
          replies = rest;
          return next!();
        },
      },
      { ...TEST_USER, refund_address: WALLET },
    );
    renderRoute("/");
    const group = await card("Group buy: 5,000 GB at $1");
    await within(group).findByText("$250");
    await userEvent.click(within(group).getByRole("button", { name: "Withdraw" }));
    const dialog = await screen.findByRole("dialog", { name: "Withdraw deposit" });
    const wallet = within(dialog).getByLabelText("Wallet address");
    expect(wallet).toHaveValue(WALLET);
    await userEvent.clear(wallet);
    await userEvent.type(wallet, "   ");
    await userEvent.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Please enter a wallet address");
    expect(api.callsTo("POST", `/deals/${GROUP}/withdraw`)).toHaveLength(0);
    await userEvent.type(wallet, "bad");
    await userEvent.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Please enter a valid wallet address");
    await userEvent.clear(wallet);
    await userEvent.type(wallet, WALLET);
    await userEvent.click(within(dialog).getByRole("button", { name: "Withdraw" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(api.callsTo("POST", `/deals/${GROUP}/withdraw`).at(-1)?.body).toEqual({ wallet_address: WALLET });
  });

  it("offers Withdraw on an activated group buy only for what it still owes (a payout that failed)", async () => {
    let owed = 50;
    dashboard({
      "GET /deals/latestv2": ok([groupBuy({ status: "activated" })]),
      [`GET /deals/${GROUP}/deposits`]: () => ok({ total_deposit: owed }),
    });
    const view = renderRoute("/");
    const group = await card("Group buy: 5,000 GB at $1");
    await within(group).findByText("$50");
    expect(within(group).getByRole("button", { name: "Withdraw" })).toBeEnabled();
    view.unmount();
    owed = 0;
    renderRoute("/");
    const settled = await card("Group buy: 5,000 GB at $1");
    await within(settled).findByText("$0");
    expect(within(settled).queryByRole("button", { name: "Withdraw" })).toBeNull();
  });

  it("keeps Withdraw disabled without a deposit", async () => {
    dashboard({
      "GET /deals/latestv2": ok([groupBuy()]),
      [`GET /deals/${GROUP}/deposits`]: ok({ total_deposit: 0 }),
    });
    renderRoute("/");
    const group = await card("Group buy: 5,000 GB at $1");
    expect(within(group).getByRole("button", { name: "Withdraw" })).toBeDisabled();
  });

  it("shares to the marketing site with a message about mobile proxies from the operator's price per GB", async () => {
    dashboard({
      "GET /config": ok({ ...TEST_CONFIG, price_per_gb_usd: 2.5 }),
      "GET /deals/latestv2": ok([dealFixture({ id: FLASH, deal_title: "Flash" })]),
    });
    renderRoute("/");
    const flash = await card("Flash");
    await userEvent.click(within(flash).getByRole("button", { name: "Share Flash" }));
    const menu = await screen.findByRole("menu");
    const names = within(menu)
      .getAllByRole("menuitem")
      .map((item) => item.textContent);
    expect(names).toEqual(
      expect.arrayContaining([
        "Copy link",
        "X",
        "WhatsApp",
        "Facebook",
        "Reddit",
        "LinkedIn",
        "Telegram",
        "E-mail",
      ]),
    );
    const x = within(menu).getByRole("menuitem", { name: "X" });
    expect(x.getAttribute("href")).toContain(
      encodeURIComponent(`https://bytetoll.example.test/?di=${FLASH}`),
    );
    expect(decodeURIComponent(x.getAttribute("href") ?? "")).toContain("Mobile proxies from $2.50/GB");
    const mail = within(menu).getByRole("menuitem", { name: "E-mail" });
    expect(decodeURIComponent(mail.getAttribute("href") ?? "")).toContain(
      "subject=Mobile proxies from $2.50/GB&",
    );
  });

  it("changes a deal's status live on deal.updated, without polling while connected", async () => {
    const api = dashboard({ "GET /deals/latestv2": ok([dealFixture({ id: FLASH, deal_title: "Flash" })]) });
    renderRoute("/");
    const flash = await card("Flash");
    await waitFor(() => expect(lastSocket()).toBeDefined());
    act(() => lastSocket().acceptConnection());
    await waitFor(() => expect(lastSocket().joined).toContain("deals"));
    // Joining reads the list once more (an update sent before the join never reached the page).
    await waitFor(() => expect(api.callsTo("GET", "/deals/latestv2")).toHaveLength(2));
    const cancelled = dealFixture({ id: FLASH, deal_title: "Flash", status: "cancelled" });
    act(() => {
      for (const socket of createdSockets) socket.deliver("deal.updated", { deal: cancelled });
    });
    await waitFor(() => expect(within(flash).getByTestId("deal-status")).toHaveTextContent("Cancelled"));
    expect(api.callsTo("GET", "/deals/latestv2")).toHaveLength(2);
    // The list's query reads again every 30 s only when asked to poll (the socket is not connected).
    expect(latestDealsQueryOptions(true).refetchInterval).toBe(30_000);
    expect(latestDealsQueryOptions(false).refetchInterval).toBe(false);
  });

  it("ignores a deal.updated whose payload is not a whole deal, and keeps applying the next ones", async () => {
    dashboard({
      "GET /deals/latestv2": ok([
        dealFixture({ id: FLASH, deal_title: "Flash" }),
        dealFixture({ id: GROUP, deal_title: "Group", deal_type: "group_buy" }),
      ]),
    });
    renderRoute("/");
    const flash = await card("Flash");
    const group = await card("Group");
    await waitFor(() => expect(lastSocket()).toBeDefined());
    act(() => lastSocket().acceptConnection());
    await waitFor(() => expect(lastSocket().joined).toContain("deals"));
    act(() => {
      for (const socket of createdSockets) {
        socket.deliver("deal.updated", { deal: { id: FLASH, deal_title: "Broken", status: "cancelled" } });
        socket.deliver("deal.updated", {
          deal: dealFixture({ id: GROUP, deal_title: "Group", deal_type: "group_buy", status: "cancelled" }),
        });
      }
    });
    // The whole update after it is applied, so the broken one was heard first and dropped.
    await waitFor(() => expect(within(group).getByTestId("deal-status")).toHaveTextContent("Cancelled"));
    expect(screen.queryByText("Broken")).toBeNull();
    expect(within(flash).getByTestId("deal-status")).not.toHaveTextContent("Cancelled");
  });
});
