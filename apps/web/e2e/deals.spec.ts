import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./fixtures/browser.ts";
import { payOnOrderPage } from "./fixtures/orders.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { signInNewCustomer } from "./fixtures/sign-in.ts";

const ADMIN_TOKEN = "e2e-admin-token-0123456789abcdef";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ADMIN_TOKEN }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function operator(path: string, body?: unknown, method = "POST") {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return (await response.json()).data as { id: string };
}

async function signedInDashboard(): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url });
  return (await signInNewCustomer(context, server, "deals")).page;
}

describe("Promotions, live", () => {
  it("shows a deal the operator creates, counts down to its start, goes live, and reads Cancelled when cancelled", async () => {
    const page = await signedInDashboard();
    const promotions = page.getByRole("region", { name: "Promotions" });
    await promotions.getByText("Check back soon for exclusive deals and discounts!").waitFor();

    // Starts in 10 minutes: pending, counting down. No fixed margin has to outlast a loaded
    // machine: once the countdown shows, the operator moves the start to 3 s from then, and the
    // scheduler (every 5 s) takes it live.
    const deal = await operator("/admin/deals", {
      deal_type: "group_buy",
      deal_title: "Group buy: mobile data at $1/GB",
      deal_description: "Together to 5,000 GB",
      deal_price: 1,
      deal_start_time: new Date(Date.now() + 600_000).toISOString(),
      deal_end_time: new Date(Date.now() + 3_600_000).toISOString(),
      deal_target_gb: 5000,
    });
    const card = promotions.getByRole("article", { name: "Group buy: mobile data at $1/GB" });
    const status = card.getByTestId("deal-status");
    // Without reloading: the deal arrives by deal.updated.
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/^Starts in 00:0\d:\d\d$/);
    const first = await status.textContent();
    await expect.poll(() => status.textContent(), { timeout: 5_000 }).not.toBe(first);
    await operator(
      `/admin/deals/${deal.id}`,
      { deal_start_time: new Date(Date.now() + 3_000).toISOString() },
      "PATCH",
    );
    await expect.poll(() => status.textContent(), { timeout: 45_000 }).toMatch(/^Ends in 00:59:\d\d$/);
    await card.getByRole("link", { name: "Continue" }).waitFor();

    await operator(`/admin/deals/${deal.id}/cancel`);
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe("Cancelled");
    expect(await card.getByRole("link", { name: "Continue" }).count()).toBe(0);
  });

  it("buys a flash sale from its card and deposits into a group buy, then withdraws the deposit", async () => {
    const flash = await operator("/admin/deals", {
      deal_type: "flash_sale",
      deal_title: "Flash sale: 1,000 GB blocks",
      deal_price: 0.5,
      deal_start_time: new Date(Date.now() - 60_000).toISOString(),
      deal_end_time: new Date(Date.now() + 3_600_000).toISOString(),
      deal_target_gb: 2000,
    });
    await operator("/admin/deals", {
      deal_type: "group_buy",
      deal_title: "Group buy: together to 5,000 GB",
      deal_price: 1,
      deal_start_time: new Date(Date.now() - 60_000).toISOString(),
      deal_end_time: new Date(Date.now() + 3_600_000).toISOString(),
      deal_target_gb: 5000,
    });
    const page = await signedInDashboard();
    const promotions = page.getByRole("region", { name: "Promotions" });

    const flashCard = promotions.getByRole("article", { name: "Flash sale: 1,000 GB blocks" });
    await flashCard.getByRole("link", { name: "Buy" }).click();
    await page.waitForURL(new RegExp(`/checkout\\?di=${flash.id}&usd=500$`));
    await payWithUsdc(page);
    await page.getByTestId("order-balance-after").filter({ hasText: "1,001 GB" }).waitFor();

    await page.getByRole("link", { name: "Dashboard" }).click();
    await flashCard.getByTestId("deal-progress").filter({ hasText: "1,000 GB / 2,000 GB" }).waitFor();

    const groupCard = promotions.getByRole("article", { name: "Group buy: together to 5,000 GB" });
    await groupCard.getByRole("link", { name: "Continue" }).click();
    await page.waitForURL(/\/checkout\?di=.*&usd=100$/);
    await payWithUsdc(page);
    await page.getByText("Deposit received. It is held until the group buy reaches its target").waitFor();

    await page.getByRole("link", { name: "Dashboard" }).click();
    await groupCard.getByTestId("your-deposit").filter({ hasText: "$100" }).waitFor();
    await groupCard.getByRole("button", { name: "Withdraw" }).click();
    const dialog = page.getByRole("dialog", { name: "Withdraw deposit" });
    await dialog.getByLabel("Wallet address").fill("0x52908400098527886E0F7030069857D2E4169EE7");
    await dialog.getByRole("button", { name: "Withdraw" }).click();
    await dialog.waitFor({ state: "detached" });
    await groupCard.getByTestId("your-deposit").filter({ hasText: "$0" }).waitFor();
    const payout = page.getByRole("region", { name: "Payouts and Refunds" }).getByTestId("payout-row");
    await payout.filter({ hasText: "$100" }).getByText("Payout", { exact: true }).waitFor();
  });
});

const ACK = "I understand that sending tokens using another blockchain network will result in loss of funds.";

/** On the checkout form: pay with USDC on Solana, then the sandbox confirms the payment. */
async function payWithUsdc(page: Page): Promise<void> {
  await page.getByLabel("USDC network").selectOption("solana");
  await page.getByLabel(ACK).check();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL(/\/checkout\?order_id=/);
  const orderId = new URL(page.url()).searchParams.get("order_id");
  if (!orderId) throw new Error(`no order_id in ${page.url()}`);
  await payOnOrderPage(page, server, orderId);
}
