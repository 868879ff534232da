import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, SCREEN_SIZES, type ScreenSize } from "./fixtures/browser.ts";
import { payOnOrderPage } from "./fixtures/orders.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { newCustomerDashboardSettled, signInNewCustomer } from "./fixtures/sign-in.ts";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({
      OPERATOR_NAME: "Toll Networks Ltd",
      OPERATOR_ADDRESS: "1 Exchange Square\\nLondon EC2A 2BR",
    }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const ACK = "I understand that sending tokens using another blockchain network will result in loss of funds.";

async function newCustomer(size: ScreenSize, prefix: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: size.width, height: size.height },
  });
  const { page } = await signInNewCustomer(context, server, `${prefix}-${size.name}`);
  await newCustomerDashboardSettled(page);
  return page;
}

/** Buys `gb` GB with USDC on Solana from the dashboard's Buy More dialog; the order page opens. */
async function orderFromDashboard(page: Page, gb: number): Promise<string> {
  await page.getByRole("button", { name: "Buy More" }).click();
  const dialog = page.getByRole("dialog", { name: "Buy More Data" });
  await dialog.getByLabel("Amount (GB)").fill(String(gb));
  await dialog.getByLabel("USDC network").selectOption("solana");
  await dialog.getByLabel(ACK).check();
  await dialog.getByRole("button", { name: /^Pay .* with USDC$/ }).click();
  await page.waitForURL(/\/checkout\?order_id=/);
  const orderId = new URL(page.url()).searchParams.get("order_id");
  if (!orderId) throw new Error(`no order_id in ${page.url()}`);
  return orderId;
}

/** True when `locator` lies wholly inside the viewport's width. */
async function fitsAcross(page: Page, testId: string, row: ReturnType<Page["getByTestId"]>) {
  const box = await row.getByTestId(testId).boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

describe.each(SCREEN_SIZES)("orders at $width×$height", (size) => {
  it("shows the free GB in the history, then cancels a new order after confirming", async () => {
    const page = await newCustomer(size, "cancel");
    const history = page.getByRole("region", { name: "Transaction History" });
    const freeRow = history.getByTestId("history-row").filter({ hasText: "Free data" });
    await freeRow.waitFor();
    expect(await freeRow.textContent()).toContain("+1 GB");
    expect(await page.getByText("No purchases yet").count()).toBe(0);

    const orderId = await orderFromDashboard(page, 2);
    await page.getByTestId("order-status").filter({ hasText: "Unpaid" }).waitFor();
    expect(await page.getByTestId("powered-by").textContent()).toBe(
      "Powered by Sandbox (test mode, no money moves).",
    );
    const first = await page.getByTestId("time-left").textContent();
    expect(first).toMatch(/^(1:00:00|59:[0-5]\d)$/);
    await expect.poll(() => page.getByTestId("time-left").textContent(), { timeout: 5_000 }).not.toBe(first);

    await page.getByRole("button", { name: "Cancel order" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel this order?" });
    await dialog.getByRole("button", { name: "Yes, cancel order" }).click();
    await page
      .getByTestId("order-status")
      .filter({ hasText: /^Cancelled$/ })
      .waitFor();
    expect(await page.getByTestId("payment-deadline").count()).toBe(0);

    // Back on the dashboard the cancelled order heads the history, above the free GB.
    await page.goto("/");
    const orderRow = history.getByTestId("history-row").first();
    await orderRow.getByText("Cancelled").waitFor();
    expect(await history.getByTestId("history-row").count()).toBe(2);

    if (size.name === "phone") {
      // Stacked: nothing scrolls sideways, and Payment and Status are on screen in every row.
      const scrolls = await page.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      );
      expect(scrolls).toBe(false);
      const payment = orderRow.locator('td[data-label="Payment"]');
      const paymentBox = await payment.boundingBox();
      expect(paymentBox && paymentBox.x + paymentBox.width <= size.width).toBe(true);
      expect(await fitsAcross(page, "order-status", orderRow)).toBe(true);
    }

    // The row's date is a link a keyboard reaches, and it opens the order.
    const link = orderRow.getByRole("link");
    await link.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`order_id=${orderId}`));
  });

  it("prints a paid order's receipt from its page", async () => {
    const page = await newCustomer(size, "receipt");
    const orderId = await orderFromDashboard(page, 5);
    await payOnOrderPage(page, server, orderId);

    await page.getByRole("link", { name: "Receipt" }).click();
    await page.waitForURL(`**/orders/${orderId}/receipt`);
    const receipt = page.getByTestId("receipt");
    await receipt.waitFor();
    expect(await page.title()).toBe("Receipt · ByteToll");
    expect(await page.getByTestId("operator").locator("strong, span").allTextContents()).toEqual([
      "Toll Networks Ltd",
      "1 Exchange Square",
      "London EC2A 2BR",
    ]);
    expect(await page.getByTestId("receipt-order").textContent()).toBe(orderId);
    expect(await page.getByTestId("receipt-data").textContent()).toBe("5 GB");
    expect(await page.getByTestId("receipt-amount").textContent()).toBe("15.00 USDC ($15)");
    expect(await page.getByTestId("receipt-payment-provider").textContent()).toBe(
      "Sandbox (test mode, no money moves)",
    );
    // The sandbox records no transaction hash (only a placeholder), so the receipt names none.
    expect(await page.getByTestId("receipt-transaction-hash").count()).toBe(0);

    // Printed: the buttons and the top bar stay off the paper, the receipt fits the page's width.
    await page.emulateMedia({ media: "print" });
    expect(await page.getByRole("button", { name: "Print" }).isVisible()).toBe(false);
    expect(await page.getByRole("link", { name: "Back to the order" }).isVisible()).toBe(false);
    const box = await receipt.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= size.width).toBe(true);
    const pdf = await page.pdf({ format: "A4" });
    expect(pdf.subarray(0, 4).toString()).toBe("%PDF");
  });
});
