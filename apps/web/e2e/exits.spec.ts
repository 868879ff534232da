import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violations } from "./fixtures/axe.ts";
import { launchBrowser, SCREEN_SIZES, type ScreenSize } from "./fixtures/browser.ts";
import { type ServerWithGateway, startServerWithGateway } from "./fixtures/gateway.ts";
import { signInNewCustomer, signInThroughPage, tokenOf } from "./fixtures/sign-in.ts";

const OPERATOR = `exits-ops-${Date.now()}@example.com`;

let site: ServerWithGateway;
let browser: Browser;
let operatorState: Awaited<ReturnType<BrowserContext["storageState"]>>;
let proxy: { username: string; password: string };

beforeAll(async () => {
  [site, browser] = await Promise.all([
    startServerWithGateway(50_000, { ADMIN_EMAILS: OPERATOR }),
    launchBrowser(),
  ]);
  // Each address signs in once (login links are rate-limited per address).
  const operatorContext = await browser.newContext({ baseURL: site.server.url });
  await signInThroughPage(await operatorContext.newPage(), site.server, OPERATOR);
  operatorState = await operatorContext.storageState();
  await operatorContext.close();
  const customerContext = await browser.newContext({ baseURL: site.server.url });
  const { page } = await signInNewCustomer(customerContext, site.server, "exits-customer");
  const response = await fetch(`${site.server.url}/credentials/latest`, {
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
  });
  proxy = ((await response.json()) as { data: { username: string; password: string } }).data;
  await customerContext.close();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

async function operatorPage(size: ScreenSize): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({
    baseURL: site.server.url,
    viewport: { width: size.width, height: size.height },
    bypassCSP: true,
    storageState: operatorState,
  });
  return { page: await context.newPage(), close: () => context.close() };
}

/** The page is no wider than the screen: nothing to scroll sideways for. */
const fits = async (page: Page, size: ScreenSize) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);

describe.each(SCREEN_SIZES)("Exits and Margins at $name size ($width×$height)", (size) => {
  const name = `direct-de-${size.name}`;

  it("adds an exit (a refused field named) and disables it behind a confirmation; no axe violation", async () => {
    const { page, close } = await operatorPage(size);
    await page.goto("/admin/exits");
    await page.getByRole("table", { name: "Exits" }).waitFor();
    expect(await violations(page, "/admin/exits")).toEqual([]);
    await fits(page, size);

    await page.getByRole("button", { name: "Add exit" }).click();
    const dialog = page.getByTestId("exit-dialog");
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("URL").fill("direct");
    await dialog.getByLabel("Countries").fill("de");
    await dialog.getByLabel("Cost (USD per GB)").fill("-1");
    await dialog.getByRole("button", { name: "Add exit" }).click();
    await dialog.getByRole("alert").filter({ hasText: "cost_per_gb_usd" }).waitFor();
    expect(await violations(page, "/admin/exits add dialog")).toEqual([]);
    await dialog.getByLabel("Cost (USD per GB)").fill("5");
    await dialog.getByRole("button", { name: "Add exit" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText(name, { exact: true }).waitFor();

    // The Test button is there (it asks an echo service on the internet: not from a test; the
    // API test runs it against a local one).
    await page.getByRole("button", { name: `Test ${name}` }).waitFor();

    // Traffic through it for the margins page: DE requests now go through this $5/GB exit.
    await site.fetchThroughGateway(`${proxy.username}-country-de`, proxy.password);

    // The "added" toast, left under the dialog's backdrop, fails contrast once both have faded
    // in (and passed only while they were still fading): the dialog is read once it has gone.
    await page.locator("[data-sonner-toast]").last().waitFor({ state: "detached", timeout: 15_000 });
    await page.getByRole("button", { name: `Disable ${name}` }).click();
    const confirm = page.getByTestId("exit-action-dialog");
    await confirm.getByText(/tunnels open now go on/).waitFor();
    expect(await violations(page, "/admin/exits disable dialog")).toEqual([]);
    await confirm.getByRole("button", { name: "Disable exit" }).click();
    await confirm.waitFor({ state: "detached" });
    await page.getByRole("button", { name: `Enable ${name}` }).waitFor();
    const refused = await site.getThroughGateway(`${proxy.username}-country-de`, proxy.password);
    expect(refused.status).not.toBe(200);
    await close();
  }, 90_000);

  it("shows billed against cost by day with the exit's loss marked, then deletes the exit behind a confirmation; no axe violation", async () => {
    const { page, close } = await operatorPage(size);
    await page.goto("/admin/margins");
    const byExit = page.getByRole("table", { name: "By exit" });
    await byExit.getByText(name).waitFor({ timeout: 20_000 });
    const row = byExit.getByRole("row").filter({ hasText: name });
    await row.getByText("Loss").waitFor();
    await page.getByRole("table", { name: "By customer" }).waitFor();
    await page.locator(".recharts-surface").first().waitFor();
    expect(await violations(page, "/admin/margins")).toEqual([]);
    await fits(page, size);

    await page.goto("/admin/exits");
    await page.getByRole("button", { name: `Delete ${name}` }).click();
    const confirm = page.getByTestId("exit-action-dialog");
    await confirm.getByRole("button", { name: "Delete exit" }).click();
    await confirm.waitFor({ state: "detached" });
    await page.getByText(name, { exact: true }).waitFor({ state: "detached" });
    await close();
  }, 90_000);
});
