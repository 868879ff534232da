import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCode, totpStep } from "../../server/src/modules/two-factor/totp.ts";
import { violations } from "./fixtures/axe.ts";
import { launchBrowser, SCREEN_SIZES, type ScreenSize } from "./fixtures/browser.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { requestLoginLink, signInThroughPage } from "./fixtures/sign-in.ts";

/** One operator per screen size: each adds a factor, which changes how the next one signs in. */
const operatorAt = (size: ScreenSize) => `ops-factor-${size.name}-${process.pid}@example.com`;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // localhost: WebAuthn takes it as the relying party, an IP address it refuses.
  [server, browser] = await Promise.all([
    startServer(
      { ADMIN_EMAILS: SCREEN_SIZES.map(operatorAt).join(","), ADMIN_2FA: "required" },
      { appHost: "localhost" },
    ),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const contextAt = (size: ScreenSize) =>
  // axe is injected as a script, which the dashboard's CSP would refuse.
  browser.newContext({
    baseURL: server.appUrl,
    viewport: { width: size.width, height: size.height },
    bypassCSP: true,
  });

async function openProfile(page: Page): Promise<void> {
  await page.getByTestId("profile-menu").click();
  await page.getByRole("menuitem", { name: "Profile" }).click();
  await page.getByTestId("second-factor-settings").getByText("Passkeys").waitFor();
}

/** Sets the authenticator app up in whatever page shows the settings; the secret and the step of
 * the code that turned it on. */
async function turnOnTotp(page: Page): Promise<{ secret: string; step: number }> {
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect.poll(() => page.getByRole("img", { name: /QR code/ }).isVisible()).toBe(true);
  const step = totpStep();
  await page.getByTestId("totp-code").fill(totpCode(secret, step));
  await page.getByRole("button", { name: "Turn on" }).click();
  await page.getByTestId("recovery-codes").waitFor();
  expect(await page.getByTestId("recovery-codes").locator("li").count()).toBe(10);
  return { secret, step };
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Close" }).first().click();
  await page.getByTestId("profile-menu").click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await page.waitForURL(/\/login$/);
}

/** Follows a fresh login link in `page` up to the second-factor step. */
async function followLinkToChallenge(page: Page, email: string): Promise<void> {
  await page.goto(await requestLoginLink(page, server, email));
  await page.getByTestId("second-factor-challenge").waitFor();
}

describe.each(SCREEN_SIZES)("a second factor at $name size", (size) => {
  let context: BrowserContext;
  afterAll(() => context?.close());

  it("sets up an authenticator app in the profile, then signs in with its code", async () => {
    context = await contextAt(size);
    const page = await context.newPage();
    const email = `totp-${size.name}-${Date.now()}@example.com`;
    await signInThroughPage(page, server, email);
    await openProfile(page);
    expect(await violations(page, "profile with second factor")).toEqual([]);
    const { secret, step } = await turnOnTotp(page);
    expect(await violations(page, "recovery codes")).toEqual([]);
    await signOut(page);

    await followLinkToChallenge(page, email);
    expect(await violations(page, "second-factor step")).toEqual([]);
    await page.getByTestId("second-factor-code").fill("000000");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByTestId("second-factor-error").waitFor();
    await page.getByTestId("second-factor-code").fill(totpCode(secret, step + 1));
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${server.appUrl}/`);
    await page.getByTestId("profile-menu").waitFor();
  });

  /** A page of its own with Chromium's virtual authenticator (DevTools protocol, WebAuthn domain). */
  async function pageWithAuthenticator(passkeyContext: BrowserContext): Promise<Page> {
    const page = await passkeyContext.newPage();
    const devtools = await passkeyContext.newCDPSession(page);
    await devtools.send("WebAuthn.enable");
    await devtools.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return page;
  }

  /** Signs a new customer in and registers a passkey named "Test laptop" in the profile. */
  async function withPasskey(page: Page, prefix: string): Promise<string> {
    const email = `${prefix}-${size.name}-${Date.now()}@example.com`;
    await signInThroughPage(page, server, email);
    await openProfile(page);
    await page.getByTestId("passkey-name").fill("Test laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByRole("button", { name: "Remove passkey Test laptop" }).waitFor();
    await page.getByTestId("recovery-codes").waitFor();
    return email;
  }

  it("registers a passkey with Chromium's virtual authenticator and signs in with it", async () => {
    const passkeyContext = await contextAt(size);
    try {
      const page = await pageWithAuthenticator(passkeyContext);
      const email = await withPasskey(page, "passkey");
      expect(await violations(page, "passkey added")).toEqual([]);
      await signOut(page);

      await followLinkToChallenge(page, email);
      await page.getByTestId("use-passkey").click();
      await page.waitForURL(`${server.appUrl}/`);
      await page.getByTestId("profile-menu").waitFor();
    } finally {
      await passkeyContext.close();
    }
  });

  it("removes a passkey, after which the link signs in at once again", async () => {
    const passkeyContext = await contextAt(size);
    try {
      const page = await pageWithAuthenticator(passkeyContext);
      const email = await withPasskey(page, "passkey-removed");
      await page.getByRole("button", { name: "Remove passkey Test laptop" }).click();
      await expect
        .poll(() => page.getByRole("button", { name: "Remove passkey Test laptop" }).count())
        .toBe(0);
      await signOut(page);
      await signInThroughPage(page, server, email);
    } finally {
      await passkeyContext.close();
    }
  });

  it("refuses an operator the console until they add a factor", async () => {
    const operatorContext = await contextAt(size);
    try {
      const page = await operatorContext.newPage();
      await signInThroughPage(page, server, operatorAt(size));
      await page.goto("/admin");
      await page.getByTestId("operator-factor-required").waitFor();
      expect(await page.getByTestId("admin-console").count()).toBe(0);
      expect(await violations(page, "operator without a factor")).toEqual([]);
      await turnOnTotp(page);
      await page.getByRole("button", { name: "Open the console" }).click();
      await page.getByTestId("admin-console").waitFor();
    } finally {
      await operatorContext.close();
    }
  });
});
