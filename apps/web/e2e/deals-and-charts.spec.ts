import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, SCREEN_SIZES, type ScreenSize } from "./fixtures/browser.ts";
import { type ServerWithGateway, startServerWithGateway } from "./fixtures/gateway.ts";
import { payOnOrderPage } from "./fixtures/orders.ts";
import { signInThroughPage, submitLoginForm, tokenOf } from "./fixtures/sign-in.ts";

const ADMIN_TOKEN = "e2e-admin-token-deals-and-charts-0123";
const OPERATOR = `deals-ops-${Date.now()}@example.com`;
const ACK = "I understand that sending tokens using another blockchain network will result in loss of funds.";

let site: ServerWithGateway;
let browser: Browser;

beforeAll(async () => {
  [site, browser] = await Promise.all([
    startServerWithGateway(2_000_000, { ADMIN_TOKEN, ADMIN_EMAILS: OPERATOR }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

async function createDeal(body: Record<string, unknown>): Promise<{ id: string }> {
  const response = await fetch(`${site.server.url}/admin/deals`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({
      deal_start_time: new Date(Date.now() - 60_000).toISOString(),
      deal_end_time: new Date(Date.now() + 3_600_000).toISOString(),
      ...body,
    }),
  });
  expect(response.status).toBe(201);
  return (await response.json()).data;
}

async function newPage(size: ScreenSize): Promise<Page> {
  const context = await browser.newContext({
    baseURL: site.server.url,
    viewport: { width: size.width, height: size.height },
  });
  return context.newPage();
}

/** On the checkout form: pay with USDC on Solana; the sandbox confirms the payment. */
async function payWithUsdc(page: Page): Promise<void> {
  await page.getByLabel("USDC network").selectOption("solana");
  await page.getByLabel(ACK).check();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL(/\/checkout\?order_id=/);
  await payOnOrderPage(page, site.server, new URL(page.url()).searchParams.get("order_id") as string);
}

describe.each(SCREEN_SIZES)("deals and charts at $width px", (size) => {
  it("shows what an activated group buy's deposit bought, and the deal's title in the history", async () => {
    const title = `Group buy ${size.name} to 100 GB`;
    const deal = await createDeal({
      deal_type: "group_buy",
      deal_title: title,
      deal_price: 1,
      deal_target_gb: 100,
    });
    const page = await newPage(size);
    await signInThroughPage(page, site.server, `deposit-${size.name}-${Date.now()}@example.com`);
    await page.goto(`/checkout?di=${deal.id}&usd=100`);
    await payWithUsdc(page);
    await page.goto("/");
    const card = page.getByRole("region", { name: "Promotions" }).getByRole("article", { name: title });
    await card.getByTestId("deal-status").filter({ hasText: "Activated" }).waitFor();
    // Before: "Your deposit $0" once the deposit had bought its data.
    await card.getByTestId("your-deposit").filter({ hasText: "$100" }).waitFor();
    expect(await card.getByTestId("deposit-bought").textContent()).toBe("Bought 100 GB at $1/GB");
    expect(await card.getByRole("button", { name: "Withdraw" }).count()).toBe(0);
    const history = page.getByRole("region", { name: "Transaction History" });
    await history.getByText(title).first().waitFor();
    expect(await history.textContent()).not.toContain(deal.id);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await page.context().close();
  });

  it("keeps the domain chart's last axis label whole", async () => {
    const page = await newPage(size);
    await signInThroughPage(page, site.server, `chart-${size.name}-${Date.now()}@example.com`);
    const credentials = await fetch(`${site.server.url}/credentials/latest`, {
      headers: { authorization: `Bearer ${await tokenOf(page)}` },
    }).then((response) => response.json() as Promise<{ data: { username: string; password: string } }>);
    await site.fetchThroughGateway(credentials.data.username, credentials.data.password);
    await page.goto("/usage");
    const card = page.getByRole("region", { name: "Usage per Domain" });
    await card.getByRole("rowheader", { name: "127.0.0.1" }).waitFor({ timeout: 15_000 });
    await card.locator(".recharts-cartesian-axis-tick-value").first().waitFor();
    const overhang = await card.evaluate((element) => {
      const chart = element.querySelector(".recharts-wrapper > svg.recharts-surface") as SVGSVGElement;
      const right = chart.getBoundingClientRect().right;
      // Every axis label: the domains on the left cannot reach the right edge, the values can.
      const ticks = Array.from(chart.querySelectorAll(".recharts-cartesian-axis-tick-value"));
      if (ticks.length < 2) throw new Error("the value axis has no labels");
      return Math.max(...ticks.map((tick) => tick.getBoundingClientRect().right - right));
    });
    // Before: the last label ("2.5 MB") hung half outside the chart and was cut to "2.5 M".
    expect(overhang).toBeLessThanOrEqual(0);
    await page.context().close();
  });

  it("brings a shared deal link through sign-in to that deal", async () => {
    const title = `Shared flash sale ${size.name}`;
    const deal = await createDeal({
      deal_type: "flash_sale",
      deal_title: title,
      deal_price: 1,
      deal_target_gb: 2000,
    });
    const page = await newPage(size);
    // A signed-in customer opening the link lands on the deal's card, ringed and focused.
    await signInThroughPage(page, site.server, `shared-${size.name}-${Date.now()}@example.com`);
    await page.goto(`/?di=${deal.id}`);
    const card = page.getByRole("article", { name: title });
    await expect.poll(() => card.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await card.getAttribute("data-shared")).toBe("true");
    expect(await card.isVisible()).toBe(true);
    await page.context().close();

    // Signed out, the link goes through /login with its deal, and the e-mailed link opens the
    // deal's order (one 1,000 GB unit) on the checkout.
    const visitor = await newPage(size);
    await visitor.goto(`/?di=${deal.id}`);
    await visitor.waitForURL(`${site.server.url}/login?di=${deal.id}`);
    const link = await submitLoginForm(
      visitor,
      site.server,
      `visitor-${size.name}-${Date.now()}@example.com`,
    );
    await visitor.goto(link);
    await visitor.waitForURL(/\/checkout\?order_id=/);
    await visitor.getByText(title).first().waitFor();
    await visitor.context().close();
  });
});

describe("the operator's Deals table and audit log at 1366 px", () => {
  it("shows every column, the last one included, without scrolling sideways", async () => {
    for (const [title, type] of [
      ["Flash sale: 1,000 GB blocks of mobile data at half price this weekend", "flash_sale"],
      ["Group buy: together to 5,000 GB of mobile data", "group_buy"],
    ] as const) {
      await createDeal({ deal_type: type, deal_title: title, deal_price: 1.5, deal_target_gb: 5000 });
    }
    const page = await newPage(SCREEN_SIZES[0]);
    await signInThroughPage(page, site.server, OPERATOR);
    await page.goto("/admin/deals");
    const table = page.getByRole("table", { name: "Deals" });
    await table.getByText("Group buy: together to 5,000 GB of mobile data").waitFor();
    const fit = await table.evaluate((element) => {
      const box = element.parentElement as HTMLElement;
      const last = element.querySelector("thead th:last-child") as HTMLElement;
      return {
        sideways: box.scrollWidth - box.clientWidth,
        lastRight: last.getBoundingClientRect().right,
        lastHeader: last.textContent,
      };
    });
    expect(fit.lastHeader).toBe("Actions");
    // Before: 268 px of the table (Status and Actions) lay past the card's edge.
    expect(fit.sideways).toBe(0);
    expect(fit.lastRight).toBeLessThanOrEqual(1366);
    await table.getByRole("button", { name: /^Cancel Group buy: together/ }).waitFor();

    // The audit log names those deals by their titles, and an operator's long note: it fits too.
    const customer = `noted-${Date.now()}@example.com`;
    const visitor = await newPage(SCREEN_SIZES[0]);
    await signInThroughPage(visitor, site.server, customer);
    await visitor.context().close();
    const customers = await fetch(`${site.server.url}/admin/customers`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    }).then((response) => response.json() as Promise<{ data: { id: string; email: string }[] }>);
    const id = customers.data.find((row) => row.email === customer)?.id;
    const credited = await fetch(`${site.server.url}/admin/customers/${id}/credit`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ gb: 5, note: "Goodwill after the outage of the 24th: ".repeat(4).trim() }),
    });
    expect(credited.status).toBe(200);
    await page.goto("/admin/audit");
    const audit = page.getByRole("table", { name: "Audit log" });
    await audit.getByText(customer).waitFor();
    expect(
      await audit.evaluate(
        (element) => element.parentElement!.scrollWidth - element.parentElement!.clientWidth,
      ),
    ).toBe(0);
    await page.context().close();
  });
});
