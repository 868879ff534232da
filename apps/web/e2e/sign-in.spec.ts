import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./fixtures/browser.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { requestLoginLink, submitLoginForm } from "./fixtures/sign-in.ts";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url });
  return context.newPage();
}

const requestLink = (page: Page, email: string) => requestLoginLink(page, server, email);

describe("signing in by e-mail link", () => {
  it("sends a link, signs the customer in by following it, and refuses the same link again", async () => {
    const page = await newPage();
    const email = `buyer-${Date.now()}@example.com`;
    const link = await requestLink(page, email);
    expect(await page.getByText("No link? Check your spam folder.").isVisible()).toBe(true);

    await page.goto(link);
    await page.waitForURL(`${server.url}/`);
    await page.getByRole("link", { name: "Connect to Proxies" }).waitFor();

    // A second browser following the used link lands on /login, signed out.
    const other = await newPage();
    await other.goto(link);
    await other.waitForURL(/\/login$/);
    await other.getByRole("heading", { name: "Login / Sign Up" }).waitFor();
  });

  it("never gives a victim the anonymous credentials an attacker asked a link for them with", async () => {
    const attacker = await newPage();
    await attacker.goto("/connect");
    const username = attacker.getByRole("textbox", { name: "Username" });
    await expect.poll(() => username.inputValue(), { timeout: 15_000 }).toMatch(/^bt[a-z0-9]{10}$/);
    const planted = await username.inputValue();
    await attacker.getByRole("link", { name: "Sign In to keep them" }).click();
    await attacker.waitForURL(/\/login$/);
    const victimEmail = `victim-${Date.now()}@example.com`;
    const link = await submitLoginForm(attacker, server, victimEmail);

    // The victim follows the e-mailed link in their own browser.
    const victim = await newPage();
    await victim.goto(link);
    await victim.waitForURL(`${server.url}/`);
    await victim.goto("/connect");
    const own = victim.getByRole("textbox", { name: "Username" });
    await expect.poll(() => own.inputValue(), { timeout: 15_000 }).toMatch(/^bt[a-z0-9]{10}$/);
    expect(await own.inputValue()).not.toBe(planted);
  });

  it("keeps a signed-in customer away from /login and forwards a deal purchase to checkout", async () => {
    const page = await newPage();
    const email = `deal-${Date.now()}@example.com`;
    await page.goto(await requestLink(page, email));
    await page.waitForURL(`${server.url}/`);

    await page.goto("/login");
    await page.waitForURL(`${server.url}/`);
    await page.goto("/login?di=abcdefgh&usd=25");
    await page.waitForURL(/\/checkout\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get("di")).toBe("abcdefgh");
    expect(url.searchParams.get("usd")).toBe("25");
  });

  it("shows the e-mail format message 500 ms after typing stops and keeps the button disabled", async () => {
    const page = await newPage();
    await page.goto("/login");
    const button = page.getByRole("button", { name: "Send Me a Login Link" });
    expect(await button.isDisabled()).toBe(true);
    await page.getByPlaceholder("Enter your email").fill("not-an-email");
    await page.getByText("Please enter a valid email address.").waitFor();
    expect(await button.isDisabled()).toBe(true);
    await page.getByPlaceholder("Enter your email").fill("fine@example.com");
    await page.waitForFunction(
      () => !(document.body.textContent ?? "").includes("Please enter a valid email address."),
    );
    expect(await button.isDisabled()).toBe(false);
  });

  it("shows the free-credit heading for the claim link", async () => {
    const page = await newPage();
    await page.goto("/login?s=cc");
    await page.getByRole("heading", { name: "Claim Your Free $3 Credit" }).waitFor();
  });

  it("sends a visitor who is not signed in to /login and shows the 404 screen for unknown paths", async () => {
    const page = await newPage();
    await page.goto("/usage");
    await page.waitForURL(/\/login$/);
    await page.goto("/no/such/page");
    await page.getByText("Page Not Found").waitFor();
    expect(await page.getByText("The page you're looking for doesn't exist.").isVisible()).toBe(true);
    await page.getByRole("link", { name: "Go to Login" }).click();
    await page.waitForURL(/\/login$/);
  });

  it("goes silently to /login when the callback has no credential or a bad one", async () => {
    const page = await newPage();
    await page.goto("/magic/auth");
    await page.waitForURL(/\/login$/);
    await page.goto("/magic/auth?magic_credential=not-a-real-token");
    await page.waitForURL(/\/login$/);
  });
});
