import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violations } from "./fixtures/axe.ts";
import { launchBrowser, SCREEN_SIZES } from "./fixtures/browser.ts";
import { type ServerWithGateway, startServerWithGateway } from "./fixtures/gateway.ts";
import { signInNewCustomer, signInThroughPage, tokenOf } from "./fixtures/sign-in.ts";

const OPERATOR = `policy-ops-${Date.now()}@example.com`;

let browser: Browser;
// bypassCSP: axe is injected as an inline script, which the dashboard's CSP refuses.
let site: ServerWithGateway;

beforeAll(async () => {
  [site, browser] = await Promise.all([
    startServerWithGateway(20_000, { ADMIN_EMAILS: OPERATOR }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

async function api<T>(page: Page, path: string, method = "GET", body?: unknown): Promise<T> {
  const response = await fetch(`${site.server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${await tokenOf(page)}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return ((await response.json()) as { data: T }).data;
}

const fitsTheScreen = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe("destination policy in the console and on the Sub-users page", () => {
  it("lists, adds, edits and deletes rules behind confirmation, on a laptop and a phone, with no axe violation", async () => {
    // One sign-in for both sizes: the operator's address has only five login links per window.
    const context = await browser.newContext({ baseURL: site.server.url, bypassCSP: true });
    const page = await context.newPage();
    await signInThroughPage(page, site.server, OPERATOR);
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await page.goto("/admin/policy");
      const table = page.getByRole("table", { name: "Destination rules" });
      await table.getByRole("row").filter({ hasText: "1-79,81-442,444-1024,2525" }).waitFor();
      expect(await violations(page, `/admin/policy ${size.name}`)).toEqual([]);
      expect(await fitsTheScreen(page)).toBe(true);

      const domain = `*.spam-${size.name}.example`;
      await page.getByRole("button", { name: "Add rule" }).click();
      const dialog = page.getByTestId("destination-rule-dialog");
      await dialog.getByLabel("Domain").fill(domain);
      await dialog.getByLabel("Ports").fill("25,");
      await dialog.getByLabel("Reason").fill("Spam sink");
      expect(await violations(page, `add rule dialog ${size.name}`)).toEqual([]);
      await dialog.getByRole("button", { name: "Add rule" }).click();
      // The API's refusal names the field, in the dialog.
      await dialog.getByRole("alert").filter({ hasText: /ports/ }).waitFor();
      await dialog.getByLabel("Ports").fill("");
      await dialog.getByRole("button", { name: "Add rule" }).click();
      const row = table.getByRole("row").filter({ hasText: domain });
      await row.waitFor();
      expect(await row.textContent()).toContain("Spam sink");

      await row.getByRole("button", { name: /^Edit rule/ }).click();
      await dialog.getByLabel("Reason").fill("Known spam sink");
      await dialog.getByRole("button", { name: "Save rule" }).click();
      await table.getByRole("row").filter({ hasText: "Known spam sink" }).waitFor();

      // A toast fading in is half-transparent: axe reads the dialog once the last one has gone.
      await page.locator("[data-sonner-toast]").last().waitFor({ state: "detached", timeout: 15_000 });
      await row.getByRole("button", { name: /^Delete rule/ }).click();
      const confirm = page.getByTestId("delete-destination-rule-dialog");
      expect(await confirm.textContent()).toContain(`Blocks every port on ${domain} for every customer`);
      expect(await violations(page, `delete rule dialog ${size.name}`)).toEqual([]);
      await confirm.getByRole("button", { name: "Delete rule" }).click();
      await row.waitFor({ state: "detached" });
      await page.screenshot({ path: `/tmp/console-policy-${size.name}.png`, fullPage: true });
    }
    const rules = await api<Array<{ domain: string | null }>>(page, "/admin/destination-rules");
    expect(rules.filter((rule) => rule.domain?.startsWith("*.spam-"))).toEqual([]);
    await context.close();
  });

  it("finds whose traffic reached an address, and disables that customer behind the dialog", async () => {
    const customerContext = await browser.newContext({ baseURL: site.server.url, bypassCSP: true });
    const { page: customer, email } = await signInNewCustomer(customerContext, site.server, "policy-abuser");
    const credentials = await api<{ username: string; password: string }>(customer, "/credentials/latest");
    await site.fetchThroughGateway(credentials.username, credentials.password);

    const context = await browser.newContext({ baseURL: site.server.url, bypassCSP: true });
    const page = await context.newPage();
    await signInThroughPage(page, site.server, OPERATOR);
    // A report rule lets the traffic through and lists it in the look-up.
    const watch = await api<{ id: number }>(page, "/admin/destination-rules", "POST", {
      action: "report",
      domain: "127.0.0.1",
      reason: "Watched origin",
    });
    expect(watch.id).toBeGreaterThan(0);
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await page.goto("/admin/policy");
      const form = page.getByRole("form", { name: "Abuse look-up" });
      await form.getByLabel("Domain or address").fill("127.0.0.1");
      const table = page.getByRole("table", { name: "Traffic to 127.0.0.1" });
      const reported = page.getByRole("table", { name: "Let through by report rules to 127.0.0.1" });
      // The gateway commits usage and report hits every few seconds: look again until both show.
      await expect
        .poll(
          async () => {
            await site.fetchThroughGateway(credentials.username, credentials.password);
            await form.getByRole("button", { name: "Look up" }).click();
            await page.waitForLoadState("networkidle");
            return [
              await table.getByRole("row").filter({ hasText: email }).count(),
              await reported.getByRole("row").filter({ hasText: "Watched origin" }).count(),
            ];
          },
          { timeout: 30_000, interval: 1_000 },
        )
        .toEqual([1, 1]);
      expect(await violations(page, `abuse look-up ${size.name}`)).toEqual([]);
      expect(await fitsTheScreen(page)).toBe(true);
    }
    const row = page
      .getByRole("table", { name: "Traffic to 127.0.0.1" })
      .getByRole("row")
      .filter({ hasText: email });
    await row.getByRole("button", { name: "Disable customer" }).click();
    const dialog = page.getByTestId("abuse-disable-dialog");
    await dialog.getByLabel("Note").fill("SMTP abuse complaint");
    // The dialog opens where the row's button was clicked, so the pointer may rest on its confirm
    // button: read it hovered, whose colour must keep its text readable too.
    await dialog.getByRole("button", { name: "Disable customer" }).hover();
    expect(await violations(page, "disable dialog")).toEqual([]);
    await dialog.getByRole("button", { name: "Disable customer" }).click();
    await row.getByText("Disabled").waitFor();
    const refused = await site.getThroughGateway(credentials.username, credentials.password);
    expect(refused.status).toBe(403);
    await context.close();
    await customerContext.close();
  });

  it("lets a customer give a sub-user its allowed sites on the Sub-users page, on a laptop and a phone", async () => {
    const context = await browser.newContext({ baseURL: site.server.url, bypassCSP: true });
    const { page } = await signInNewCustomer(context, site.server, "policy-owner");
    await api(page, "/subusers", "POST", { label: "contractor" });
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      await page.goto("/subusers");
      const item = page.getByTestId("subuser-item").filter({ hasText: "contractor" });
      await item.getByTestId("subuser-sites").waitFor();
      await item.getByRole("button", { name: "Edit contractor" }).click();
      const dialog = page.getByTestId("edit-subuser-dialog");
      const sites = dialog.getByLabel("Allowed sites");
      await sites.fill("shop.example\nhttp://bad.example");
      await dialog.getByRole("button", { name: "Save changes" }).click();
      await dialog.getByRole("alert").filter({ hasText: "http://bad.example" }).waitFor();
      await sites.fill(`shop.example\n*.cdn-${size.name}.example`);
      expect(await violations(page, `edit sub-user dialog ${size.name}`)).toEqual([]);
      await dialog.getByRole("button", { name: "Save changes" }).click();
      await expect
        .poll(() => item.getByTestId("subuser-sites").textContent())
        .toBe(`Sites: shop.example, *.cdn-${size.name}.example`);
      expect(await violations(page, `/subusers ${size.name}`)).toEqual([]);
      expect(await fitsTheScreen(page)).toBe(true);
    }
    const [subuser] = await api<Array<{ allowed_domains: string[] | null }>>(page, "/subusers");
    expect(subuser?.allowed_domains).toEqual(["shop.example", "*.cdn-phone.example"]);
    await context.close();
  });
});
