import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./fixtures/browser.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { newCustomerDashboardSettled, signInNewCustomer, submitLoginForm } from "./fixtures/sign-in.ts";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const ACK = "I understand that sending tokens using another blockchain network will result in loss of funds.";

/** A new customer signs in through the page and lands on the dashboard with the free 1 GB. */
async function newCustomerOnDashboard(prefix: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url });
  const { page } = await signInNewCustomer(context, server, prefix);
  await newCustomerDashboardSettled(page);
  return page;
}

async function openBuyMore(page: Page, gb: number) {
  await page.getByRole("button", { name: "Buy More" }).click();
  const dialog = page.getByRole("dialog", { name: "Buy More Data" });
  await dialog.getByLabel("Amount (GB)").fill(String(gb));
  return dialog;
}

function orderIdOf(page: Page): string {
  const orderId = new URL(page.url()).searchParams.get("order_id");
  if (!orderId) throw new Error(`no order_id in ${page.url()}`);
  return orderId;
}

describe("buying data", () => {
  it("buys 5 GB with USDC on Solana and sees the order turn paid live", async () => {
    const page = await newCustomerOnDashboard("usdc");

    const dialog = await openBuyMore(page, 5);
    expect(await dialog.getByTestId("buy-more-total").textContent()).toBe("$15");
    await dialog.getByLabel("USDC network").selectOption("solana");
    await dialog.getByLabel(ACK).check();
    await dialog.getByRole("button", { name: "Pay $15 with USDC" }).click();

    await page.waitForURL(/\/checkout\?order_id=/);
    const orderId = orderIdOf(page);
    await page.getByTestId("order-status").filter({ hasText: "Unpaid" }).waitFor();
    const address = (await page.getByTestId("pay-address").textContent()) ?? "";
    expect(address.length).toBeGreaterThan(10);
    expect(await page.getByTestId("order-amount").textContent()).toBe("15.00 USDC");
    expect(await page.getByTestId("order-payment-token").textContent()).toBe("USDC (Solana)");
    await page.locator('[data-testid="live-status"][data-state="connected"]').waitFor();

    // A marker on window proves the page below is the same document: no reload happened.
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    const paid = await fetch(`${server.url}/dev/orders/${orderId}/pay`, { method: "POST" });
    expect(paid.status).toBe(200);

    await page.getByTestId("order-status").filter({ hasText: "Paid" }).waitFor();
    await page.getByTestId("order-balance-after").filter({ hasText: "6 GB" }).waitFor();
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

    // Back on the dashboard (client-side): the balance and the history show the purchase.
    await page.getByRole("link", { name: "Dashboard" }).click();
    await page.getByTestId("balance-gb").filter({ hasText: "6 GB" }).waitFor();
    const row = page.getByTestId("history-row").first();
    await row.getByText("Paid").waitFor();
    expect(await row.getByText("5 GB").isVisible()).toBe(true);
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  it("buys 2 GB by card through the sandbox card page", async () => {
    const page = await newCustomerOnDashboard("card");
    const dialog = await openBuyMore(page, 2);
    // The radio itself is visually hidden; people click its card-shaped label.
    await dialog.getByText("Card", { exact: true }).click();
    expect(await dialog.getByRole("radio", { name: /Card/ }).isChecked()).toBe(true);
    await dialog.getByRole("button", { name: "Pay $6 by card" }).click();

    await page.waitForURL(/\/dev\/card-checkout\//);
    await page.getByRole("button", { name: "Pay $6.00" }).click();

    await page.waitForURL(/\/checkout\?order_id=/);
    await page.getByTestId("order-status").filter({ hasText: "Paid" }).waitFor();
    await page.getByTestId("order-balance-after").filter({ hasText: "3 GB" }).waitFor();
    expect(await page.getByTestId("order-payment-token").textContent()).toBe("Card");
  });

  it("signs a new visitor in from /login?usd=30 straight onto that order, pays it with USDC", async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    const email = `usd-link-${Date.now()}@example.com`;
    await page.goto("/login?usd=30");
    const link = await submitLoginForm(page, server, email);
    // Following the link makes the account and the order; the callback lands on that order.
    await page.goto(link);
    await page.waitForURL(/\/checkout\?order_id=/);
    const orderId = orderIdOf(page);
    expect(orderId).toMatch(/^[0-9a-f-]{36}$/);
    const form = page.getByTestId("crypto-checkout-form");
    await form.waitFor();
    expect(await form.getByTestId("checkout-total").textContent()).toBe("$30");
    await form.getByLabel("USDC network").selectOption("solana");
    await form.getByLabel(ACK).check();
    await form.getByRole("button", { name: "Pay", exact: true }).click();

    const address = (await page.getByTestId("pay-address").textContent()) ?? "";
    expect(address.length).toBeGreaterThan(10);
    expect(await page.getByTestId("order-amount").textContent()).toBe("30.00 USDC");
    expect(await page.getByTestId("order-payment-token").textContent()).toBe("USDC (Solana)");
    await page.getByTestId("order-status").filter({ hasText: "Unpaid" }).waitFor();
    await page.locator('[data-testid="live-status"][data-state="connected"]').waitFor();

    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    // The sandbox order page pays itself, as the card sandbox's page does.
    await page.getByRole("button", { name: "Simulate payment" }).click();
    await page.getByTestId("order-status").filter({ hasText: "Paid" }).waitFor();
    // 1 GB free at sign-in + 10 GB bought.
    await page.getByTestId("order-balance-after").filter({ hasText: "11 GB" }).waitFor();
    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await context.close();
  });
});
