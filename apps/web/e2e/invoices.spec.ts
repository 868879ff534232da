import { readFile } from "node:fs/promises";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violations } from "./fixtures/axe.ts";
import { launchBrowser, SCREEN_SIZES } from "./fixtures/browser.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { signInNewCustomer, tokenOf } from "./fixtures/sign-in.ts";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ OPERATOR_NAME: "Proxy Seller GmbH", OPERATOR_VAT_ID: "DE123456789" }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("invoices", () => {
  for (const size of SCREEN_SIZES) {
    it(`a company enters its billing details, pays, and downloads an invoice that names both parties (${size.name})`, async () => {
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: size,
        bypassCSP: true,
        acceptDownloads: true,
      });
      const { page } = await signInNewCustomer(context, server, `invoices-${size.name}`);
      await page.getByRole("button", { name: "Account menu" }).click();
      await page.getByRole("menuitem", { name: "Profile" }).click();
      const dialog = page.getByRole("dialog", { name: "Profile" });
      const billing = dialog.getByRole("form", { name: "Billing details" });
      await billing.getByLabel("Company").fill(`Scrapers ${size.name} Ltd`);
      await billing.getByLabel("Country (2 letters)").fill("XX");
      await billing.getByRole("button", { name: "Save billing details" }).click();
      await billing.getByRole("alert").getByText("country must be an ISO 3166-1 alpha-2 code").waitFor();
      await billing.getByLabel("Country (2 letters)").fill("gb");
      await billing.getByLabel("VAT ID").fill("GB999");
      await billing.getByRole("button", { name: "Save billing details" }).click();
      await page.getByText("Billing details saved").waitFor();
      expect(await violations(page, `profile billing (${size.name})`)).toEqual([]);
      await page.keyboard.press("Escape");

      const token = await tokenOf(page);
      const created = await fetch(`${server.url}/transactions`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ amount: 3, network_type: "solana" }),
      });
      expect(created.status).toBe(201);
      const orderId = ((await created.json()) as { data: { order_id: string } }).data.order_id;
      expect((await fetch(`${server.url}/dev/orders/${orderId}/pay`, { method: "POST" })).status).toBe(200);

      await page.goto("/");
      const invoices = page.getByRole("region", { name: "Invoices" });
      const row = invoices.getByTestId("invoice-row").first();
      await row.waitFor();
      const number = (await row.locator(".font-mono").textContent()) ?? "";
      expect(number).toMatch(/^INV-\d{4}-\d{6}$/);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        row.getByRole("button", { name: `Download ${number}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${number}.html`);
      const html = await readFile((await download.path()) as string, "utf8");
      for (const text of [
        `Invoice ${number}`,
        "Proxy Seller GmbH",
        "VAT ID: DE123456789",
        `Scrapers ${size.name} Ltd`,
        "GB",
        "VAT ID: GB999",
        "$3.00",
      ]) {
        expect(html).toContain(text);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await violations(page, `/ invoices (${size.name})`)).toEqual([]);
      await page.screenshot({ path: `/tmp/invoices-${size.name}.png`, fullPage: true });
      await context.close();
    });
  }
});
