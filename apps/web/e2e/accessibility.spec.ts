import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violations } from "./fixtures/axe.ts";
import { launchBrowser, SCREEN_SIZES, type ScreenSize } from "./fixtures/browser.ts";
import { type ServerWithGateway, startServerWithGateway } from "./fixtures/gateway.ts";
import type { RunningServer } from "./fixtures/server.ts";
import { signInThroughPage, tokenOf } from "./fixtures/sign-in.ts";

const ADMIN_TOKEN = "e2e-a11y-admin-token-0123456789ab";
const OPERATOR = `a11y-ops-${Date.now()}@example.com`;
const CUSTOMER = `a11y-customer-${Date.now()}@example.com`;
const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";

let site: ServerWithGateway;
let server: RunningServer;
let browser: Browser;
/** Signed-in browser storage (the app token) of the customer and the operator. */
let customerState: Awaited<ReturnType<BrowserContext["storageState"]>>;
let operatorState: typeof customerState;
let paidOrderId: string;
let unpaidOrderId: string;
let customerId: string;

async function call<T>(path: string, token: string, body?: unknown, method = "POST"): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { data: T; message?: string };
  if (!response.ok) throw new Error(`${path}: ${response.status} ${envelope.message}`);
  return envelope.data;
}

function newDeal(deal_type: "flash_sale" | "group_buy", deal_title: string, deal_price: number) {
  return call<{ id: string }>("/admin/deals", ADMIN_TOKEN, {
    deal_type,
    deal_title,
    deal_price,
    deal_start_time: new Date(Date.now() - 60_000).toISOString(),
    deal_end_time: new Date(Date.now() + 3_600_000).toISOString(),
    deal_target_gb: 5000,
  });
}

/** Everything the pages show: traffic, a paid and an unpaid order, live deals, a withdrawn deposit
 * (a pending payout for the console) and the audit entries those leave. */
async function seed(): Promise<void> {
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await signInThroughPage(page, server, CUSTOMER);
  const token = await tokenOf(page);
  customerId = (await call<{ id: string }>("/auth/session", token)).id;
  const credentials = await call<{ username: string; password: string }>("/credentials/latest", token);
  await site.fetchThroughGateway(credentials.username, credentials.password);
  const subuser = await call<{ username: string; password: string }>("/subusers", token, {
    label: "crawler",
    limit_gb: 1,
    limit_period: "day",
  });
  await site.fetchThroughGateway(subuser.username, subuser.password);
  await newDeal("flash_sale", "Flash sale: mobile data at $2/GB", 2);
  const groupBuy = await newDeal("group_buy", "Group buy: mobile data at $1/GB", 1);
  const order = (body: object) =>
    call<{ order_id: string }>("/transactions", token, { method: "crypto", network_type: "solana", ...body });
  paidOrderId = (await order({ amount: 30 })).order_id;
  await fetch(`${server.url}/dev/orders/${paidOrderId}/pay`, { method: "POST" });
  unpaidOrderId = (await order({ amount: 9 })).order_id;
  const deposit = (await order({ amount: 100, deal_id: groupBuy.id })).order_id;
  await fetch(`${server.url}/dev/orders/${deposit}/pay`, { method: "POST" });
  await call(`/deals/${groupBuy.id}/withdraw`, token, { wallet_address: WALLET });
  await call(`/admin/customers/${customerId}/credit`, ADMIN_TOKEN, { gb: 2, note: "a11y" });
  customerState = await context.storageState();
  await context.close();

  const operatorContext = await browser.newContext({ baseURL: server.url });
  await signInThroughPage(await operatorContext.newPage(), server, OPERATOR);
  operatorState = await operatorContext.storageState();
  await operatorContext.close();
}

beforeAll(async () => {
  [site, browser] = await Promise.all([
    startServerWithGateway(20_000, { ADMIN_TOKEN, ADMIN_EMAILS: OPERATOR }),
    launchBrowser(),
  ]);
  server = site.server;
  await seed();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

type Check = (page: Page) => Promise<void>;

/** Pages (path and what shows it is ready) and open states to check, for a signed-in customer. */
const customerViews: Array<[string, Check]> = [
  ["/", (page) => page.getByRole("article", { name: "Flash sale: mobile data at $2/GB" }).waitFor()],
  [
    "/ share menu",
    async (page) => {
      await page.getByRole("button", { name: "Share Flash sale: mobile data at $2/GB" }).click();
      await page.getByRole("menuitem", { name: "Copy link" }).waitFor();
    },
  ],
  [
    "/ buy more dialog, USDC chosen",
    async (page) => {
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Buy More" }).click();
      await page.getByRole("dialog").getByText("Powered by", { exact: false }).first().waitFor();
    },
  ],
  [
    "/ account menu",
    async (page) => {
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Account menu" }).click();
      await page.getByRole("menuitem", { name: "Profile" }).waitFor();
    },
  ],
  [
    "/ profile dialog",
    async (page) => {
      await page.getByRole("menuitem", { name: "Profile" }).click();
      await page.getByRole("dialog").waitFor();
    },
  ],
  ["/checkout?usd=30", (page) => page.getByRole("button", { name: "Pay", exact: true }).waitFor()],
  ["/checkout?order_id=UNPAID", (page) => page.getByTestId("order-status").waitFor()],
  ["/orders/PAID/receipt", (page) => page.getByText("Paid").first().waitFor()],
  ["/connect", (page) => page.getByRole("heading", { name: "Example Code" }).waitFor()],
  [
    "/usage",
    (page) => page.getByRole("rowheader", { name: "127.0.0.1" }).first().waitFor({ timeout: 15_000 }),
  ],
  ["/smart-routings", (page) => page.getByRole("heading", { name: "Intelligence" }).waitFor()],
  ["/nowhere", (page) => page.getByText("Page Not Found").waitFor()],
  [
    "/docs/integrations",
    (page) => page.getByRole("heading", { name: "Using ByteToll from your code" }).waitFor(),
  ],
];

/** The Sub-users page (a sub-user with traffic) and its dialog, checked on their own. */
const subuserViews: Array<[string, Check]> = [
  ["/subusers", (page) => page.getByTestId("subuser-item").first().waitFor()],
  [
    "/subusers new sub-user dialog",
    async (page) => {
      await page.getByRole("button", { name: "New sub-user" }).click();
      await page.getByTestId("new-subuser-dialog").waitFor();
    },
  ],
];

const phoneViews: Array<[string, Check]> = [
  [
    "/ phone menu",
    async (page) => {
      await page.getByRole("button", { name: "Open menu" }).click();
      await page.getByTestId("mobile-sidebar").getByRole("link", { name: "Usage" }).waitFor();
    },
  ],
];

const consoleViews: Array<[string, Check]> = [
  ["/admin", (page) => page.getByRole("heading", { name: "Overview" }).waitFor()],
  ["/admin/customers", (page) => page.getByRole("table", { name: "Customers" }).waitFor()],
  ["/admin/customers/CUSTOMER", (page) => page.getByRole("table", { name: "Sub-users" }).waitFor()],
  ["/admin/orders", (page) => page.getByRole("table").first().waitFor()],
  ["/admin/orders/PAID", (page) => page.getByRole("heading").first().waitFor()],
  ["/admin/deals", (page) => page.getByRole("table").first().waitFor()],
  ["/admin/payouts", (page) => page.getByRole("button", { name: "Mark sent" }).first().waitFor()],
  ["/admin/network", (page) => page.getByRole("heading", { name: "Network" }).first().waitFor()],
  ["/admin/audit", (page) => page.getByRole("table", { name: "Audit log" }).waitFor()],
];

/** Opens each view in turn: a path is loaded, an entry with text after the path acts on the page
 * already open (a menu, a dialog). Returns every violation found. */
async function visit(page: Page, views: Array<[string, Check]>): Promise<string[]> {
  const found: string[] = [];
  for (const [view, ready] of views) {
    const path = view
      .split(" ")[0]!
      .replace("UNPAID", unpaidOrderId)
      .replace("PAID", paidOrderId)
      .replace("CUSTOMER", customerId);
    if (path !== new URL(page.url()).pathname + new URL(page.url()).search || view === path) {
      await page.goto(path);
    }
    try {
      await ready(page);
    } catch (error) {
      found.push(`${view}: did not open (${(error as Error).message.split("\n")[0]})`);
      continue;
    }
    found.push(...(await violations(page, view)));
  }
  return found;
}

describe.each(SCREEN_SIZES)("every page at $name size ($width×$height)", (size: ScreenSize) => {
  const viewport = { width: size.width, height: size.height };

  it("has no WCAG 2.2 AA violation on the login page", async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport, bypassCSP: true });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByPlaceholder("Enter your email").waitFor();
    expect(await violations(page, "/login")).toEqual([]);
    await context.close();
  });

  // Three parts, each well inside the test timeout on a loaded machine: a page and an axe read
  // take 5–8 s each when the whole suite runs on two slow cores, and the second of two halves
  // (eight pages) once reached the 60 s limit.
  const customerHalves = [
    ["the dashboard, its menus and the checkout", customerViews.slice(0, 6)],
    ["the orders, connect and usage pages", customerViews.slice(6, 10)],
    ["the routing, not-found pages and the rest", customerViews.slice(10)],
  ] as const;
  it.each(customerHalves)("has none on a customer's pages, menus and dialogs: %s", async (_, half) => {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport,
      bypassCSP: true,
      storageState: customerState,
    });
    const page = await context.newPage();
    const last = half === customerHalves[2][1];
    const views = size.name === "phone" && last ? [...half, ...phoneViews] : [...half];
    expect(await visit(page, views)).toEqual([]);
    await context.close();
  });

  it("has none on the Sub-users page and its dialog", async () => {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport,
      bypassCSP: true,
      storageState: customerState,
    });
    expect(await visit(await context.newPage(), subuserViews)).toEqual([]);
    await context.close();
  });

  it("fits the integration guide (its endpoint table too) on the screen", async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport });
    const page = await context.newPage();
    await page.goto("/docs/integrations");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(size.width);
    const table = await page.getByRole("table").boundingBox();
    expect(table!.x + table!.width).toBeLessThanOrEqual(size.width);
    await context.close();
  });

  // Two halves for the same reason as the customer's pages (one test took 55–57 s of its 60).
  const consoleHalves = [
    ["its first pages", consoleViews.slice(0, 5)],
    ["the rest", consoleViews.slice(5)],
  ] as const;
  it.each(consoleHalves)("has none on the operator's console: %s", async (_, half) => {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport,
      bypassCSP: true,
      storageState: operatorState,
    });
    const page = await context.newPage();
    expect(await visit(page, [...half])).toEqual([]);
    await context.close();
  });
});
