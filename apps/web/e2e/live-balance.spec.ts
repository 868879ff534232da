import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./fixtures/browser.ts";
import { type ServerWithGateway, startServerWithGateway } from "./fixtures/gateway.ts";
import type { RunningServer } from "./fixtures/server.ts";
import { signInNewCustomer, tokenOf } from "./fixtures/sign-in.ts";

/** Enough to move a new account's 1 GB to 0.97 GB (figures have 2 decimals). */
const BODY_BYTES = 30_000_000;
/** Well under the 30 s the page polls at while its socket is down: only a push is this fast. */
const PUSH_DEADLINE_MS = 15_000;

let server: RunningServer;
let browser: Browser;
let site: ServerWithGateway;

beforeAll(async () => {
  [site, browser] = await Promise.all([startServerWithGateway(BODY_BYTES), launchBrowser()]);
  server = site.server;
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

async function outboxSubjects(email: string): Promise<string[]> {
  const response = await fetch(`${server.url}/dev/outbox/messages?to=${encodeURIComponent(email)}`);
  const body = (await response.json()) as { data: Array<{ subject: string }> };
  return body.data.map((message) => message.subject);
}

describe.each([
  { name: "desktop", width: 1366, height: 850 },
  { name: "phone", width: 390, height: 844 },
])("the live balance ($name, $width×$height)", ({ name, width, height }) => {
  it("moves the top-bar figure when traffic goes through the real gateway, without a reload", async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width, height } });
    const { page, email } = await signInNewCustomer(context, server, `live-${name}`);

    const badge = page.getByRole("banner").getByTestId("balance-badge");
    await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe("1 GB");
    expect(await badge.getAttribute("href")).toBe("/");
    expect(await badge.isVisible()).toBe(true);
    // The top bar fits the screen with the figure in it.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);

    // Any other signed-in page shows it too; the traffic happens while the customer is there.
    await page.goto("/usage");
    await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe("1 GB");
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    const credentials = await fetch(`${server.url}/credentials/latest`, {
      headers: { authorization: `Bearer ${await tokenOf(page)}` },
    }).then((response) => response.json() as Promise<{ data: { username: string; password: string } }>);
    await site.fetchThroughGateway(credentials.data.username, credentials.data.password);
    const sent = Date.now();

    await expect.poll(() => badge.textContent(), { timeout: PUSH_DEADLINE_MS }).toBe("0.97 GB");
    const elapsed = Date.now() - sent;
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
    expect(elapsed).toBeLessThan(PUSH_DEADLINE_MS);

    // The badge leads to Buy Data, whose card shows the same figure.
    await badge.click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => page.getByTestId("balance-gb").textContent()).toBe("0.97 GB");

    // A new account holding just the free 1 GB (the default threshold) has never been above it,
    // so its first request is no crossing: no low-balance e-mail (docs/product.md#data-balance).
    // The server handles a user's balance in runs that never overlap, each pushing the figure and
    // checking for the e-mail. A second request's figure on the badge comes from a later run, so
    // the run that showed 0.97 GB, e-mail check included, is over.
    await site.fetchThroughGateway(credentials.data.username, credentials.data.password);
    await expect.poll(() => badge.textContent(), { timeout: PUSH_DEADLINE_MS }).toBe("0.94 GB");
    expect((await outboxSubjects(email)).filter((subject) => /of data left$/.test(subject))).toEqual([]);

    // The threshold is the customer's to set in Profile.
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Profile" }).click();
    const alert = page.getByRole("dialog", { name: "Profile" }).getByTestId("low-balance-alert");
    const amount = alert.getByLabel("When my balance falls below");
    await expect.poll(() => amount.inputValue()).toBe("1");
    await amount.fill("0.5");
    await alert.getByRole("button", { name: "Save" }).click();
    await alert.getByText("Low-balance alert saved").waitFor();
    const profile = await fetch(`${server.url}/account/profile`, {
      headers: { authorization: `Bearer ${await tokenOf(page)}` },
    }).then((response) => response.json() as Promise<{ data: { low_balance_threshold_gb: number | null } }>);
    expect(profile.data.low_balance_threshold_gb).toBe(0.5);
    await context.close();
  });
});
