import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./fixtures/browser.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { signInThroughPage } from "./fixtures/sign-in.ts";

const ADMIN_TOKEN = "e2e-admin-token-0123456789abcdef";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ADMIN_TOKEN }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function operator(path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return (await response.json()).data as { id: string };
}

async function signedInDashboard(): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await signInThroughPage(page, server, `deals-${Date.now()}@example.com`);
  return page;
}

describe("Promotions, live", () => {
  it("shows a deal the operator creates, counts down to its start, goes live, and reads Cancelled when cancelled", async () => {
    const page = await signedInDashboard();
    const promotions = page.getByRole("region", { name: "Promotions" });
    await promotions.getByText("Check back soon for exclusive deals and discounts!").waitFor();

    // Starts a few seconds from now: pending, then live at the scheduler's next pass.
    const deal = await operator("/admin/deals", {
      deal_type: "group_buy",
      deal_title: "Group buy: mobile data at $1/GB",
      deal_description: "Together to 5,000 GB",
      deal_price: 1,
      deal_start_time: new Date(Date.now() + 4_000).toISOString(),
      deal_end_time: new Date(Date.now() + 3_600_000).toISOString(),
      deal_target_gb: 5000,
    });
    const card = promotions.getByRole("article", { name: "Group buy: mobile data at $1/GB" });
    const status = card.getByTestId("deal-status");
    // Without reloading: the deal arrives by deal.updated.
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/^Starts in 00:00:0\d$/);
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/^Ends in 00:59:\d\d$/);
    await card.getByRole("link", { name: "Continue" }).waitFor();

    await operator(`/admin/deals/${deal.id}/cancel`);
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe("Cancelled");
    expect(await card.getByRole("link", { name: "Continue" }).count()).toBe(0);
  });
});
