import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, SCREEN_SIZES, type ScreenSize } from "./fixtures/browser.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { signInThroughPage } from "./fixtures/sign-in.ts";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedInPage(size: ScreenSize): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: size.width, height: size.height },
    permissions: ["clipboard-read", "clipboard-write"],
  });
  const page = await context.newPage();
  await signInThroughPage(page, server, `rough-${size.name}-${Date.now()}@example.com`);
  return page;
}

describe.each(SCREEN_SIZES)("the customer's rough edges at $width px", (size) => {
  it("keeps the example code inside the page and the sticky username across a reload", async () => {
    const page = await signedInPage(size);
    await page.goto("/connect");
    await page
      .getByTestId("example-code")
      .getByText(/--proxy-user/)
      .waitFor();
    expect(await page.title()).toBe("Connect to Proxies · ByteToll");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await page.getByRole("switch", { name: "Sticky session" }).click();
    const username = page.getByRole("textbox", { name: "Username" });
    const sticky = await username.inputValue();
    expect(sticky).toMatch(/-session-[A-Za-z0-9]{8}$/);
    await page.reload();
    await page.getByRole("switch", { name: "Sticky session", checked: true }).waitFor();
    await expect.poll(() => username.inputValue()).toBe(sticky);
    await page.getByRole("button", { name: "New session" }).click();
    expect(await username.inputValue()).not.toBe(sticky);
    await page.context().close();
  });

  it("shows Skip to content on a solid background when it gets focus", async () => {
    const page = await signedInPage(size);
    await page.goto("/usage");
    await page.getByRole("heading", { name: "Usage", level: 1 }).waitFor();
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
    const background = await skip.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(background).not.toMatch(/^rgba?\(255, 255, 255|rgba\(0, 0, 0, 0\)|transparent/);
    await page.context().close();
  });
});
