import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, loadedScriptWith, recordScripts, SCREEN_SIZES } from "./fixtures/browser.ts";
import { type ServerWithGateway, startServerWithGateway } from "./fixtures/gateway.ts";
import type { RunningServer } from "./fixtures/server.ts";
import { signInNewCustomer, signInThroughPage } from "./fixtures/sign-in.ts";

const OPERATOR = `ops-${Date.now()}@example.com`;
/** Text only the console's own code carries (its frame), never the gate or the customer's pages. */
const CONSOLE_MARK = "admin-console";

let server: RunningServer;
let browser: Browser;
let site: ServerWithGateway;

beforeAll(async () => {
  [site, browser] = await Promise.all([
    startServerWithGateway(20_000, { ADMIN_EMAILS: `Someone@example.com, ${OPERATOR}` }),
    launchBrowser(),
  ]);
  server = site.server;
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

async function tokenOf(page: Page): Promise<string> {
  const stored = await page.evaluate(() => window.localStorage.getItem("bytetoll.token"));
  return (JSON.parse(stored ?? "{}") as { token: string }).token;
}

/** A call to the API as the signed-in page's user; the status and the parsed envelope's data. */
async function api<T>(page: Page, path: string, body?: unknown): Promise<{ status: number; data: T }> {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${await tokenOf(page)}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { data: T };
  return { status: response.status, data: envelope.data };
}

/** The balance the customer page shows, in GB. */
async function shownBalance(page: Page): Promise<number> {
  const text = (await page.getByTestId("customer-balance").textContent()) ?? "";
  return Number(text.replace(/[^0-9.-]/g, ""));
}

/** "2026-11-21T10:05" in the browser's own time zone, for a datetime-local field. */
function localInput(page: Page, msFromNow: number): Promise<string> {
  return page.evaluate((offset) => {
    const date = new Date(Date.now() + offset);
    return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  }, msFromNow);
}

describe("the operator's console", () => {
  // Five operator tasks in one story (find, credit, disable with a proxy check, a deal, a payout):
  // 15–25 s alone, 46–59 s when the whole suite shares two slow cores, so twice the usual limit.
  it("finds a customer, credits them, disables them (their proxy requests stop), creates a deal and sends a payout", async () => {
    const customerContext = await browser.newContext({ baseURL: server.url });
    // A customer's pages make no request the server refuses (the console link comes with the session).
    const refused: string[] = [];
    customerContext.on("response", (response) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    const { page: customer, email } = await signInNewCustomer(customerContext, server, "console-customer");
    const { data: credentials } = await api<{ username: string; password: string }>(
      customer,
      "/credentials/latest",
    );
    await site.fetchThroughGateway(credentials.username, credentials.password);
    // A customer's menu has no way into the console.
    await customer.getByRole("link", { name: "Usage" }).first().waitFor();
    expect(await customer.getByRole("link", { name: "Operator console" }).count()).toBe(0);
    await customer.waitForLoadState("networkidle");
    expect(refused).toEqual([]);

    const operatorContext = await browser.newContext({ baseURL: server.url });
    const operator = await operatorContext.newPage();
    await signInThroughPage(operator, server, OPERATOR);
    await operator.getByRole("link", { name: "Operator console" }).first().click();
    await operator.waitForURL(`${server.url}/admin`);
    await operator.getByRole("heading", { name: "Overview" }).waitFor();

    // Find the customer by e-mail and open their page.
    await operator.getByRole("link", { name: "Customers" }).first().click();
    await operator.getByRole("searchbox", { name: "Search by e-mail" }).fill(email);
    await operator.keyboard.press("Enter");
    await operator.waitForURL(/\/admin\/customers\?email=/);
    await operator.getByRole("link", { name: email }).click();
    await operator.getByRole("heading", { name: new RegExp(email) }).waitFor();
    const before = await shownBalance(operator);

    // Credit 5 GB with a note: the page and the customer's own balance move by 5 GB.
    await operator.getByRole("button", { name: "Credit or debit" }).click();
    const credit = operator.getByRole("dialog", { name: `Credit or debit ${email}` });
    await credit.getByLabel("GB", { exact: true }).fill("5");
    await credit.getByLabel("Note").fill("e2e goodwill");
    await credit.getByRole("button", { name: "Credit" }).click();
    await credit.waitFor({ state: "detached" });
    await expect.poll(() => shownBalance(operator), { timeout: 10_000 }).toBeCloseTo(before + 5, 2);
    const status = await api<{ balance_gb: number }>(customer, "/account/status");
    expect(status.data.balance_gb).toBeCloseTo(before + 5, 2);
    await operator.getByRole("table", { name: "Ledger" }).getByText("e2e goodwill").waitFor();
    // The customer's ~20 KB of traffic is a usage debit shown in KB, not "0 GB".
    await operator
      .getByRole("table", { name: "Ledger" })
      .getByText(/^−\d+(\.\d)? KB$/)
      .first()
      .waitFor();

    // Disable: the gateway refuses the customer's next request with 403 account_disabled, the API with 403.
    await operator.getByRole("button", { name: "Disable account" }).click();
    const disable = operator.getByRole("dialog", { name: "Disable account" });
    await disable.getByText("403 account_disabled").waitFor();
    await disable.getByRole("button", { name: "Disable" }).click();
    await operator.getByRole("button", { name: "Enable account" }).waitFor();
    await expect
      .poll(
        async () => {
          const refused = await site.getThroughGateway(credentials.username, credentials.password);
          return `${refused.status} ${refused.error}`;
        },
        { timeout: 15_000, interval: 250 },
      )
      .toBe("403 account_disabled");
    expect((await api(customer, "/account/status")).status).toBe(403);

    // Create a group buy from the Deals page, live at once.
    await operator.getByRole("link", { name: "Deals" }).first().click();
    await operator.getByRole("button", { name: "New deal" }).click();
    const form = operator.getByRole("dialog", { name: "New deal" });
    const title = `Console group buy ${Date.now()}`;
    await form.getByLabel("Type").selectOption("group_buy");
    await form.getByLabel("Title").fill(title);
    await form.getByLabel("Price (USD per GB)").fill("1");
    await form.getByLabel("Target (GB)").fill("5000");
    await form.getByLabel("Starts").fill(await localInput(operator, -60_000));
    await form.getByLabel("Ends").fill(await localInput(operator, 3_600_000));
    await form.getByRole("button", { name: "Create deal" }).click();
    await form.waitFor({ state: "detached" });
    await operator.getByRole("progressbar", { name: `${title} progress` }).waitFor();

    // Another customer deposits into it and withdraws: a pending payout for the operator.
    const depositorContext = await browser.newContext({ baseURL: server.url });
    const { page: depositor } = await signInNewCustomer(depositorContext, server, "console-depositor");
    const { data: deals } = await api<Array<{ id: string; deal_title: string }>>(operator, "/admin/deals");
    const deal = deals.find((candidate) => candidate.deal_title === title)!;
    const order = await api<{ order_id: string }>(depositor, "/transactions", {
      amount: 100,
      method: "crypto",
      network_type: "solana",
      deal_id: deal.id,
    });
    expect(order.status).toBe(201);
    expect(
      (await fetch(`${server.url}/dev/orders/${order.data.order_id}/pay`, { method: "POST" })).status,
    ).toBe(200);
    const withdrawn = await api(depositor, `/deals/${deal.id}/withdraw`, {
      wallet_address: "0x52908400098527886E0F7030069857D2E4169EE7",
    });
    expect(withdrawn.status).toBe(200);

    // Mark the payout sent with its transaction hash.
    await operator.getByRole("link", { name: "Payouts" }).first().click();
    await operator.getByRole("button", { name: "Mark sent" }).click();
    const send = operator.getByRole("dialog", { name: "Mark payout sent" });
    await send
      .getByLabel("Transaction hash")
      .fill("0x9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a");
    await send.getByRole("button", { name: "Mark sent" }).click();
    await send.waitFor({ state: "detached" });
    await operator.getByText("Nothing to pay: no pending payouts.").waitFor();
    const { data: sent } = await api<Array<{ tx_hash: string }>>(operator, "/admin/payouts?status=sent");
    expect(sent.map((payout) => payout.tx_hash)).toEqual([
      "0x9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a",
    ]);

    // Every action above is in the audit log under the operator's e-mail.
    await operator.getByRole("link", { name: "Audit log" }).first().click();
    const audit = operator.getByRole("table", { name: "Audit log" });
    await audit.getByText("customer.disable").waitFor();
    expect(await audit.getByText(OPERATOR).count()).toBeGreaterThanOrEqual(3);

    await Promise.all([customerContext.close(), operatorContext.close(), depositorContext.close()]);
  }, 120_000);

  it("shows a customer's sub-users with their use of the limit and their traffic, on a laptop and a phone", async () => {
    const customerContext = await browser.newContext({ baseURL: server.url });
    const { page: customer, email } = await signInNewCustomer(customerContext, server, "console-subusers");
    const created = await api<{ username: string; password: string }>(customer, "/subusers", {
      label: "nightly crawler",
      limit_gb: 1,
      limit_period: "day",
    });
    expect(created.status).toBe(200);
    await api(customer, "/subusers", { label: "reports" });
    // 20,000 bytes of body through the gateway with the sub-user's credentials.
    await site.fetchThroughGateway(created.data.username, created.data.password);
    const { data: main } = await api<{ username: string; password: string }>(customer, "/credentials/latest");
    await site.fetchThroughGateway(main.username, main.password);

    for (const size of SCREEN_SIZES) {
      const context = await browser.newContext({ baseURL: server.url, viewport: size });
      const operator = await context.newPage();
      await signInThroughPage(operator, server, OPERATOR);
      await operator.goto(`/admin/customers?email=${encodeURIComponent(email)}`);
      await operator.getByRole("link", { name: email }).click();
      const table = operator.getByRole("table", { name: "Sub-users" });
      const row = table.getByRole("row").filter({ hasText: "nightly crawler" });
      // The gateway commits the sub-user's use within seconds: the page shows it once reloaded.
      await expect
        .poll(
          async () => {
            await operator.reload();
            await table.waitFor();
            return row.textContent();
          },
          { timeout: 20_000, interval: 500 },
        )
        .toMatch(/2\d(\.\d)? KB of 1 GB per day \(0%\)/);
      expect(await row.textContent()).toContain(created.data.username);
      expect(await row.textContent()).toContain("Enabled");
      expect(await table.getByRole("row").filter({ hasText: "reports" }).textContent()).toContain(
        "used, no limit",
      );
      await operator.getByRole("heading", { name: "Sub-users (2)" }).waitFor();
      await expect
        .poll(() => operator.getByTestId("subuser-traffic-split").textContent(), { timeout: 20_000 })
        .toMatch(/main credentials 2\d(\.\d)? KB \(1 request\)/);
      expect(await operator.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
        true,
      );
      await operator.screenshot({ path: `/tmp/console-subusers-${size.name}.png`, fullPage: true });
      await context.close();
    }
    await customerContext.close();
  });

  it("shows each background job on the Overview with its queue, last run and failures, on a laptop and a phone", async () => {
    // One sign-in for both sizes: the operator's address has only five login links per window.
    const context = await browser.newContext({ baseURL: server.url });
    const operator = await context.newPage();
    await signInThroughPage(operator, server, OPERATOR);
    for (const size of SCREEN_SIZES) {
      await operator.setViewportSize(size);
      await operator.goto("/admin");
      const jobs = operator.getByRole("list", { name: "Background jobs" });
      const delivery = jobs.getByRole("listitem").filter({ hasText: "webhooks.deliver" });
      // The delivery job runs within a second of the server starting; the card refreshes itself.
      await expect
        .poll(() => delivery.textContent(), { timeout: 30_000 })
        .toMatch(/every 1 s · last run .*Queued 0.*Failures 0.*Dead 0/);
      for (const name of ["orders.expire", "deals.move-due", "subusers.limit-check", "intelligence.learn"]) {
        await jobs.getByRole("listitem").filter({ hasText: name }).waitFor();
      }
      expect(await operator.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
        true,
      );
      await operator.screenshot({ path: `/tmp/console-jobs-${size.name}.png`, fullPage: true });
    }
    await context.close();
  });

  it("shows a customer who opens /admin a refusal page, and never sends them the console's code", async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const scripts = recordScripts(context);
    const { page } = await signInNewCustomer(context, server, "console-visitor");
    await page.goto("/admin/customers");
    await page.getByRole("heading", { name: "Not an operator" }).waitFor();
    await page.getByRole("link", { name: "Go back to Dashboard" }).click();
    await page.waitForURL(`${server.url}/`);
    expect(await loadedScriptWith(scripts, CONSOLE_MARK)).toBe(false);
    await context.close();
  });

  it("fits a 390×844 phone on the customer list and the customer page", async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signInThroughPage(page, server, OPERATOR);
    // Every overview figure is whole on a phone: a long one wraps instead of being cut.
    await page.goto("/admin");
    const soldUsed = page.getByRole("definition").filter({ hasText: / GB \/ / });
    await soldUsed.waitFor();
    expect(await soldUsed.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await page.goto("/admin/customers");
    await page.getByRole("table", { name: "Customers" }).waitFor();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    // Each row is a card: no table scrolls sideways, and the last column (Balance) is on screen.
    const sidewaysScroll = () =>
      page.evaluate(() =>
        Math.max(
          0,
          ...[...document.querySelectorAll("table")].map((table) => {
            const box = table.parentElement ?? table;
            return box.scrollWidth - box.clientWidth;
          }),
        ),
      );
    expect(await sidewaysScroll()).toBe(0);
    const balance = page
      .getByRole("table", { name: "Customers" })
      .locator('td[data-label="Balance"]')
      .first();
    expect(await balance.isVisible()).toBe(true);
    const balanceBox = await balance.boundingBox();
    expect(balanceBox!.x).toBeGreaterThanOrEqual(0);
    expect(balanceBox!.x + balanceBox!.width).toBeLessThanOrEqual(390);
    expect(await balance.textContent()).toMatch(/\d/);

    // The menu opens from the top bar and leads through the console by keyboard.
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByTestId("mobile-sidebar").getByRole("link", { name: "Customers" }).waitFor();
    await page.keyboard.press("Escape");

    await page.getByRole("table", { name: "Customers" }).getByRole("link").first().click();
    await page.getByTestId("customer-balance").waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    expect(await sidewaysScroll()).toBe(0);
    await page.getByRole("button", { name: "Credit or debit" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await context.close();
  });
});
