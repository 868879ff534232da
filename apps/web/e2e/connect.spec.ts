import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./fixtures/browser.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { signInThroughPage, submitLoginForm } from "./fixtures/sign-in.ts";

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, "../../..");
/** The URL the page's examples fetch; swapped for a loopback origin so the test needs no internet. */
const EXAMPLE_TARGET = "https://ipinfo.io/json";
const ORIGIN_BODY = "hello through the ByteToll gateway";

let server: RunningServer;
let browser: Browser;
let origin: Server;
let originUrl: string;
const originHits: string[] = [];

beforeAll(async () => {
  origin = createServer((request, response) => {
    originHits.push(request.url ?? "");
    response.writeHead(200, { "content-type": "text/plain" }).end(ORIGIN_BODY);
  });
  await new Promise<void>((done) => origin.listen(0, "127.0.0.1", done));
  const address = origin.address();
  originUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/from-example`;
  [server, browser] = await Promise.all([startServer({ EGRESS_ALLOW: "127.0.0.1/32" }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((done) => origin?.close(done));
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    permissions: ["clipboard-read", "clipboard-write"],
  });
  return context.newPage();
}

/** Copies the shown example with the page's Copy button and reads it back from the clipboard. */
async function copyExample(page: Page, tab: string): Promise<string> {
  await page.getByRole("tab", { name: tab }).click();
  await page.getByRole("button", { name: "Copy example code" }).click();
  await page.getByText("Copied!").waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

describe("the Connect page", () => {
  it("tests the connection and its cURL and Node.js examples run through the gateway as shown", async () => {
    const page = await newPage();
    await signInThroughPage(page, server, `connect-${Date.now()}@example.com`);
    await page.goto("/connect");
    const username = page.getByRole("textbox", { name: "Username" });
    await expect.poll(() => username.inputValue(), { timeout: 15_000 }).toMatch(/^bt[a-z0-9]{10}$/);

    // This network's exits name no country: the card says so instead of hiding the choice.
    await page
      .getByText(
        "Exit country: any. No exit of this network is tagged with a country yet, so a request cannot choose one.",
      )
      .waitFor();
    await page.getByRole("switch", { name: "Sticky session" }).click();
    await expect.poll(() => username.inputValue()).toMatch(/^bt[a-z0-9]{10}-session-[A-Za-z0-9]{8}$/);
    expect(new URL(page.url()).searchParams.get("ss")).toBe("true");

    await page.getByRole("button", { name: "Test Connection" }).click();
    const banner = page.getByRole("status").filter({ hasText: "Connected through the proxy." });
    await banner.waitFor({ timeout: 20_000 });
    await banner.getByRole("button", { name: "Show raw response" }).click();
    await banner.getByText("Private network").waitFor();

    const curl = await copyExample(page, "cURL");
    expect(curl).toContain(await username.inputValue());
    expect(curl).toContain(EXAMPLE_TARGET);
    const curlRun = await run("sh", ["-c", curl.replace(EXAMPLE_TARGET, `${originUrl}?via=curl`)], {
      timeout: 20_000,
    });
    expect(curlRun.stdout).toBe(ORIGIN_BODY);

    const node = await copyExample(page, "Node.js");
    expect(node).toContain(EXAMPLE_TARGET);
    // A directory of its own that sees the repository's node_modules (where undici is installed).
    const dir = mkdtempSync(join(tmpdir(), "bytetoll-example-"));
    try {
      symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
      writeFileSync(join(dir, "example.mjs"), node.replace(EXAMPLE_TARGET, `${originUrl}?via=node`));
      const nodeRun = await run(process.execPath, ["example.mjs"], { cwd: dir, timeout: 20_000 });
      expect(nodeRun.stdout.trim()).toBe(ORIGIN_BODY);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(originHits).toEqual(["/from-example?via=curl", "/from-example?via=node"]);

    // The API token is shown masked, the full value goes to the clipboard.
    const token = page.getByRole("textbox", { name: "API token" });
    await expect.poll(() => token.inputValue()).toMatch(/^bt_.{12}•+$/);
    await page.getByRole("button", { name: "Copy API token" }).click();
    const copiedToken = await page.evaluate(() => navigator.clipboard.readText());
    const session = await fetch(`${server.url}/auth/session`, {
      headers: { authorization: `Bearer ${copiedToken}` },
    });
    expect(session.status).toBe(200);
  });

  it("gives an anonymous visitor temporary credentials that become the account's when signing up", async () => {
    const page = await newPage();
    await page.goto("/connect");
    const username = page.getByRole("textbox", { name: "Username" });
    await expect.poll(() => username.inputValue(), { timeout: 15_000 }).toMatch(/^bt[a-z0-9]{10}$/);
    const temporary = await username.inputValue();
    const password = await page.getByRole("textbox", { name: "Password" }).inputValue();

    await page.getByRole("link", { name: "Sign In to keep them" }).click();
    await page.waitForURL(/\/login$/);
    const email = `visitor-${Date.now()}@example.com`;
    const link = await submitLoginForm(page, server, email);
    await page.goto(link);
    await page.waitForURL(`${server.url}/`);

    await page.goto("/connect");
    await expect.poll(() => username.inputValue(), { timeout: 15_000 }).toBe(temporary);
    expect(await page.getByRole("textbox", { name: "Password" }).inputValue()).toBe(password);
  });
});
