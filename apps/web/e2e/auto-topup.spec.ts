import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violations } from "./fixtures/axe.ts";
import { launchBrowser, SCREEN_SIZES } from "./fixtures/browser.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { signInNewCustomer, tokenOf } from "./fixtures/sign-in.ts";

const ADMIN_TOKEN = "e2e-auto-topup-admin-token-0123456789";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ADMIN_TOKEN }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** An operator's debit through the admin API, as traffic would take the balance down. */
async function debit(page: Page, gb: number) {
  const session = await fetch(`${server.url}/auth/session`, {
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
  });
  const { id } = ((await session.json()) as { data: { id: string } }).data;
  const response = await fetch(`${server.url}/admin/customers/${id}/credit`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ gb: -gb, note: "e2e traffic" }),
  });
  expect(response.status).toBe(200);
}

describe("auto top-up on the Buy Data card", () => {
  for (const size of SCREEN_SIZES) {
    it(`saves a card, turns it on after a confirmation and tops up once below the threshold (${size.name})`, async () => {
      // axe is injected as a script, which the page's own policy would refuse.
      const context = await browser.newContext({ baseURL: server.url, viewport: size, bypassCSP: true });
      const { page } = await signInNewCustomer(context, server, `auto-topup-${size.name}`);
      await page.getByTestId("auto-topup-summary").filter({ hasText: "Auto top-up: off" }).waitFor();
      await page.getByRole("button", { name: "Set up" }).click();
      const dialog = page.getByRole("dialog", { name: "Auto top-up" });
      await dialog.getByText("Add a card first.").waitFor();
      expect(await dialog.getByLabel("Top up automatically").isDisabled()).toBe(true);
      expect(await violations(page, "dialog without a card")).toEqual([]);

      // The sandbox's card page stands in for Stripe's and comes back to the dashboard.
      await dialog.getByRole("button", { name: "Add a card" }).click();
      await page.waitForURL(/\/dev\/card-setup\//);
      await page.getByRole("button", { name: /Save test card •••• 4242/ }).click();
      await page.waitForURL(`${server.url}/`);
      await dialog.getByText("Card: Visa •••• 4242").waitFor();

      // Keyboard only: tick, fill, save; a bad amount is named before anything is sent.
      await dialog.getByLabel("Top up automatically").focus();
      await page.keyboard.press("Space");
      await dialog.getByLabel("Add", { exact: true }).fill("2");
      await dialog.getByText(/Enter an amount from \$3 to/).waitFor();
      expect(await dialog.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);
      await dialog.getByLabel("Add", { exact: true }).fill("3");
      await dialog.getByLabel("At most per month").fill("10");
      await dialog.getByLabel("At most per month").press("Enter");
      await dialog
        .getByText(
          "Your Visa •••• 4242 will be charged $3 each time your balance falls below 1 GB, at most $10 per calendar month (UTC).",
        )
        .waitFor();
      expect(await violations(page, "confirmation")).toEqual([]);
      await page.screenshot({ path: `/tmp/auto-topup-confirm-${size.name}.png` });
      await page.keyboard.press("Enter");
      await dialog.getByRole("status").filter({ hasText: "Auto top-up saved" }).waitFor();
      await page.keyboard.press("Escape");
      await page
        .getByTestId("auto-topup-summary")
        .filter({ hasText: "Auto top-up: on below 1 GB, +$3" })
        .waitFor();
      await page.getByRole("button", { name: "Change" }).waitFor();
      expect(await fitsWidth(page)).toBe(true);
      expect(await violations(page, "card line")).toEqual([]);

      // Traffic takes the balance below 1 GB: one top-up, listed as such, and 1 GB more.
      await debit(page, 0.5);
      await page.getByTestId("history-row").filter({ hasText: "Auto top-up" }).waitFor({ timeout: 20_000 });
      await page.getByTestId("balance-gb").filter({ hasText: "1.5 GB" }).waitFor({ timeout: 20_000 });
      expect(await page.getByTestId("history-row").filter({ hasText: "Auto top-up" }).count()).toBe(1);
      await page.screenshot({ path: `/tmp/auto-topup-history-${size.name}.png`, fullPage: true });
      expect(await fitsWidth(page)).toBe(true);
      await context.close();
    });
  }
});
