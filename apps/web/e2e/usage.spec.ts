import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, loadedScriptWith, recordScripts } from "./fixtures/browser.ts";
import { type ServerWithGateway, startServerWithGateway } from "./fixtures/gateway.ts";
import type { RunningServer } from "./fixtures/server.ts";
import { signInNewCustomer, tokenOf } from "./fixtures/sign-in.ts";

/** A class name only Recharts' own code carries (it survives minification as a string). */
const RECHARTS_MARK = "recharts-responsive-container";
const BODY_BYTES = 2_000_000;

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

async function loadedRecharts(scripts: Map<string, Promise<string>>): Promise<boolean> {
  return loadedScriptWith(scripts, RECHARTS_MARK);
}

describe("the Usage page", () => {
  it("shows a new account the empty state, then its traffic through the gateway within seconds", async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const scripts = recordScripts(context);
    const { page } = await signInNewCustomer(context, server, "usage");
    await page.getByRole("link", { name: "Buy Data" }).first().waitFor();
    // The dashboard is up and nothing of the chart library has been downloaded.
    expect(await loadedRecharts(scripts)).toBe(false);

    await page.getByRole("link", { name: "Usage" }).first().click();
    await page.waitForURL(`${server.url}/usage`);
    for (const title of ["Usage per Day", "Usage per Domain", "Usage by Proxy Type"]) {
      await page.getByRole("heading", { name: title }).waitFor();
    }
    await expect.poll(() => page.getByText("No data available.").count(), { timeout: 15_000 }).toBe(3);

    const credentials = await fetch(`${server.url}/credentials/latest`, {
      headers: { authorization: `Bearer ${await tokenOf(page)}` },
    }).then((response) => response.json() as Promise<{ data: { username: string; password: string } }>);
    await site.fetchThroughGateway(credentials.data.username, credentials.data.password);
    await site.fetchThroughGateway(credentials.data.username, credentials.data.password);

    // No reload: the open page picks the traffic up by itself once the gateway has flushed it.
    const domainCard = page.getByRole("region", { name: "Usage per Domain" });
    await domainCard.getByRole("rowheader", { name: "127.0.0.1" }).waitFor({ timeout: 15_000 });
    // The charts have been drawn now, from their own lazily loaded code.
    await page.locator(".recharts-responsive-container").first().waitFor();
    expect(await loadedRecharts(scripts)).toBe(true);

    const typeCard = page.getByRole("region", { name: "Usage by Proxy Type" });
    await typeCard.getByText("Requests", { exact: true }).click();
    await expect.poll(() => typeCard.getByTestId("donut-centre").textContent()).toBe("Total2");
    const row = typeCard.getByRole("row", { name: /All traffic/ });
    expect(await row.locator("td").allTextContents()).toEqual(["2", "0", "2"]);

    // The export reconciles to the byte with what the origin itself counted.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const path = await download.path();
    const csv = readFileSync(path, "utf8");
    expect(csv).toMatch(/^date,domain,proxy_type,bytes,requests,subuser\r\n/);
    // The main credentials' traffic: the sub-user column is empty.
    expect(csv).toContain(`,127.0.0.1,mobile,${site.origin.bytesCarried()},2,\r\n`);
    expect(download.suggestedFilename()).toMatch(
      /^bytetoll-usage-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    await context.close();
  });

  it("filters the cards and the CSV export by the sub-user chosen", async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const { page } = await signInNewCustomer(context, server, "usage-subuser");
    const call = <T>(path: string, body?: unknown) =>
      tokenOf(page).then((token) =>
        fetch(`${server.url}${path}`, {
          method: body === undefined ? "GET" : "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then(async (response) => ((await response.json()) as { data: T }).data),
      );
    const main = await call<{ username: string; password: string }>("/credentials/latest");
    const crawler = await call<{ username: string; password: string }>("/subusers", { label: "crawler" });
    const carried = site.origin.bytesCarried();
    await site.fetchThroughGateway(main.username, main.password);
    const mainBytes = site.origin.bytesCarried() - carried;
    await site.fetchThroughGateway(crawler.username, crawler.password);
    await site.fetchThroughGateway(crawler.username, crawler.password);
    const crawlerBytes = site.origin.bytesCarried() - carried - mainBytes;

    // The gateway flushes usage in batches: wait until the server counts all three requests, so the
    // page's first reading is the whole traffic (it would otherwise catch up only on its next refresh).
    await expect
      .poll(
        async () => {
          const rows = await call<{ mobile_requests: number; dc_requests: number }[]>(
            "/proxies/usage?group_by=proxy_type&days=30",
          );
          return rows.reduce((sum, row) => sum + row.mobile_requests + row.dc_requests, 0);
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe(3);
    await page.goto("/usage");
    const choice = page.getByRole("combobox", { name: "Sub-user" });
    await choice.waitFor();
    let filename = "";
    const exported = async () => {
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Export CSV" }).click(),
      ]);
      filename = download.suggestedFilename();
      const rows = readFileSync(await download.path(), "utf8")
        .trim()
        .split("\r\n")
        .slice(1);
      return rows.map((row) => row.split(","));
    };
    const typeCard = page.getByRole("region", { name: "Usage by Proxy Type" });
    await typeCard.getByText("Requests", { exact: true }).click();
    await expect.poll(() => typeCard.getByTestId("donut-centre").textContent()).toBe("Total3");

    await choice.selectOption({ label: "crawler" });
    await expect.poll(() => typeCard.getByTestId("donut-centre").textContent()).toBe("Total2");
    const crawlerRows = await exported();
    expect(crawlerRows).toEqual([
      [expect.any(String), "127.0.0.1", "mobile", String(crawlerBytes), "2", "crawler"],
    ]);

    await choice.selectOption({ label: "Main credentials" });
    await expect.poll(() => typeCard.getByTestId("donut-centre").textContent()).toBe("Total1");
    const mainRows = await exported();
    expect(mainRows).toEqual([[expect.any(String), "127.0.0.1", "mobile", String(mainBytes), "1", ""]]);
    expect(filename).toMatch(/^bytetoll-usage-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d-main\.csv$/);
    // The filter is in the URL: a reload keeps it.
    expect(new URL(page.url()).searchParams.get("subuser")).toBe("main");
    await page.reload();
    await expect.poll(() => choice.inputValue()).toBe("main");

    await choice.selectOption({ label: "All credentials" });
    expect((await exported()).map((row) => row[5]).sort()).toEqual(["", "crawler"]);
    await context.close();
  });

  it("fits a 375 px phone and works by keyboard", async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 375, height: 800 } });
    const { page } = await signInNewCustomer(context, server, "usage-phone");
    await page.goto("/usage");
    await page.getByRole("heading", { name: "Usage per Day" }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // Tab to the first card's metric radio and choose Requests with an arrow key.
    const dayCard = page.getByRole("region", { name: "Usage per Day" });
    const gbRadio = dayCard.getByRole("radio", { name: "GB Used" });
    for (
      let presses = 0;
      presses < 40 && !(await gbRadio.evaluate((el) => el === document.activeElement));
      presses++
    ) {
      await page.keyboard.press("Tab");
    }
    expect(await gbRadio.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("ArrowRight");
    expect(await dayCard.getByRole("radio", { name: "Requests" }).isChecked()).toBe(true);
    await page.keyboard.press("Tab");
    await page.keyboard.press("ArrowDown");
    expect(await dayCard.getByRole("combobox", { name: "Usage per Day period" }).inputValue()).toBe("14");
    await context.close();
  });
});
