import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./fixtures/browser.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { requestLoginLink, signInNewCustomer } from "./fixtures/sign-in.ts";

const ADMIN_TOKEN = "admin-token-e2e-phone-0123456789";
const OPERATOR = "ops@example.com";
const DISABLED = `This account is disabled. Contact support at ${OPERATOR}`;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ ADMIN_TOKEN, ADMIN_EMAILS: OPERATOR }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function admin(path: string, body: unknown = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function userId(page: Page): Promise<string> {
  const stored = await page.evaluate(() => window.localStorage.getItem("bytetoll.token"));
  const token = (JSON.parse(stored ?? "{}") as { token: string }).token;
  const session = await fetch(`${server.url}/auth/session`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await session.json()) as { data: { id: string } }).data.id;
}

const PHONE = { width: 390, height: 844 };

describe("the phone's top bar (390×844) with a large balance", () => {
  it("fits the screen on every page and keeps the account menu reachable", async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: PHONE });
    const { page } = await signInNewCustomer(context, server, "phone-bar");
    expect(
      (await admin(`/admin/customers/${await userId(page)}/credit`, { gb: 1015.5, note: "e2e" })).status,
    ).toBe(200);
    const badge = page.getByRole("banner").getByTestId("balance-badge");
    for (const path of ["/", "/connect", "/usage", "/smart-routings"]) {
      await page.goto(path);
      await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe("1,016.5 GB");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(overflow, path).toBeLessThanOrEqual(PHONE.width);
      const menu = page.getByRole("button", { name: "Account menu" });
      const box = await menu.boundingBox();
      expect(box, path).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, path).toBeLessThanOrEqual(PHONE.width);
    }
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Profile" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Logout" }).isVisible()).toBe(true);
    await context.close();
  });
});

describe("copying the username on a phone (390×844)", () => {
  it("shows Copied! without squeezing the field", async () => {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: PHONE,
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const { page } = await signInNewCustomer(context, server, "phone-copy");
    await page.goto("/connect");
    const username = page.getByRole("textbox", { name: "Username" });
    await expect.poll(() => username.inputValue(), { timeout: 15_000 }).not.toBe("");
    const before = (await username.boundingBox())!.width;
    await page.getByRole("button", { name: /copy username/i }).click();
    await page.getByText("Copied!").first().waitFor();
    expect((await username.boundingBox())!.width).toBe(before);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await context.close();
  });
});

describe.each([
  { name: "desktop", width: 1366, height: 850 },
  { name: "phone", ...PHONE },
])("a disabled customer ($name)", ({ name, width, height }) => {
  it("is told on the open dashboard, after a reload, on /connect and through a login link", async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width, height } });
    const { page, email } = await signInNewCustomer(context, server, `disabled-${name}`);
    await page.getByRole("banner").getByTestId("balance-badge").filter({ hasText: "GB" }).waitFor();
    expect((await admin(`/admin/customers/${await userId(page)}/disable`)).status).toBe(200);

    // The page was open: the server drops its socket, the page asks again and learns why.
    const notice = page.getByTestId("account-disabled");
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.textContent()).toContain(DISABLED);
    expect(await page.getByRole("link", { name: OPERATOR }).getAttribute("href")).toBe(`mailto:${OPERATOR}`);
    expect(await page.getByTestId("balance-badge").count()).toBe(0);

    for (const path of ["/", "/connect"]) {
      await page.goto(path);
      await notice.waitFor();
      expect(await page.getByText(/temporary credentials/i).count()).toBe(0);
    }

    // Sign out, then sign in again: the link leads to the notice, not silently back to /login.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${server.url}/login`);
    const link = await requestLoginLink(page, server, email);
    await page.goto(link);
    await notice.waitFor();
    expect(await notice.textContent()).toContain(DISABLED);
    await context.close();
  });
});
