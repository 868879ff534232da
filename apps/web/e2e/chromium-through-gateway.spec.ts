import http from "node:http";
import type net from "node:net";
import { freePort } from "@bytetoll/gateway/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./fixtures/browser.ts";
import { type ServerWithGateway, startServerWithGateway } from "./fixtures/gateway.ts";
import type { RunningServer } from "./fixtures/server.ts";
import { signInNewCustomer, tokenOf } from "./fixtures/sign-in.ts";

/** A page big enough to take many reads and writes each way, with a line number on every line so
 * a byte out of place shows. Its icon is inline, so the page is the one request (a favicon
 * fetched after the billing was read would make the site's count move on). */
const PAGE = Buffer.from(
  `<!doctype html><html><head><title>Through ByteToll</title><link rel="icon" href="data:,"></head><body><pre>\n${Array.from(
    { length: 6_000 },
    (_, i) => `line ${String(i).padStart(5, "0")} ${"abcdefghijklmnopqrstuvwxyz".repeat(2)}`,
  ).join("\n")}\n</pre><p id="end">the end</p></body></html>\n`,
);

/** A site on 127.0.0.1 that serves PAGE at every path (favicon included) and closes each
 * connection after its answer, counting every byte its sockets carried once they are closed. */
interface PageSite {
  url: string;
  /** Bytes of connections that have closed, and how many are still open. */
  carried(): { bytes: number; open: number };
  close(): Promise<void>;
}

async function startPageSite(): Promise<PageSite> {
  let bytes = 0;
  let open = 0;
  const server = http.createServer((_request, response) => {
    response.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-length": PAGE.length,
      connection: "close",
    });
    response.end(PAGE);
  });
  server.on("connection", (socket: net.Socket) => {
    open += 1;
    socket.on("close", () => {
      open -= 1;
      bytes += socket.bytesRead + socket.bytesWritten;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    carried: () => ({ bytes, open }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let server: RunningServer;
let browser: Browser;
let site: ServerWithGateway;
let pageSite: PageSite;
let httpPort: number;
let socksPort: number;

beforeAll(async () => {
  socksPort = await freePort();
  [site, browser, pageSite] = await Promise.all([
    startServerWithGateway(1_000, { GATEWAY_SOCKS_PORT: String(socksPort) }),
    launchBrowser(),
    startPageSite(),
  ]);
  server = site.server;
  httpPort = site.gatewayPort;
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await pageSite?.close();
});

/** A new customer, signed in through the page; its API token and proxy credentials. */
async function newCustomer(prefix: string) {
  const context = await browser.newContext({ baseURL: server.url });
  const { page } = await signInNewCustomer(context, server, prefix);
  const token = await tokenOf(page);
  await context.close();
  const credentials = await fetch(`${server.url}/credentials/latest`, {
    headers: { authorization: `Bearer ${token}` },
  }).then((response) => response.json() as Promise<{ data: { username: string; password: string } }>);
  return { token, ...credentials.data };
}

/** The bytes billed today to 127.0.0.1, from the account's usage export (exact bytes). */
async function billedTo127(token: string): Promise<number> {
  const response = await fetch(`${server.url}/proxies/usage/export?days=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const row = (await response.text()).split("\r\n").find((line) => line.includes(",127.0.0.1,"));
  return row ? Number(row.split(",")[3]) : 0;
}

/** Opens the page in a context whose every request goes through `proxy`; what it received. */
async function openThrough(proxy: { server: string; username?: string; password?: string }) {
  const context = await browser.newContext({ proxy });
  const page = await context.newPage();
  const response = await page.goto(`${pageSite.url}/page`);
  const body = await response?.body();
  const status = response?.status();
  const end = await page.locator("#end").textContent();
  await context.close();
  return { status, body, end };
}

/** Waits until every connection to the site has closed and the account's usage shows each of
 * its bytes; then both figures. */
async function settledBilling(token: string, before: { bytes: number }) {
  await expect
    .poll(
      async () => {
        const { bytes, open } = pageSite.carried();
        return open === 0 && (await billedTo127(token)) === bytes - before.bytes;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return { billed: await billedTo127(token), carried: pageSite.carried().bytes - before.bytes };
}

describe("Chromium through the gateway (Playwright's proxy option)", () => {
  it("fetches a page byte-exact through the HTTP proxy with credentials, billed to the byte", async () => {
    const customer = await newCustomer("chromium-http");
    const before = pageSite.carried();
    const opened = await openThrough({
      server: `http://127.0.0.1:${httpPort}`,
      username: customer.username,
      password: customer.password,
    });
    expect(opened.status).toBe(200);
    expect(opened.body?.equals(PAGE)).toBe(true);
    expect(opened.end).toBe("the end");
    const { billed, carried } = await settledBilling(customer.token, before);
    expect(billed).toBe(carried);
    expect(billed).toBeGreaterThan(PAGE.length);
  });

  it("fetches a page byte-exact through SOCKS5 from an allowlisted address, billed to the byte", async () => {
    // Chromium speaks SOCKS5 without authentication: the customer lists the address it comes
    // from instead, as docs/product.md#ip-allowlist says.
    const customer = await newCustomer("chromium-socks");
    const listed = await fetch(`${server.url}/settings/allowlist`, {
      method: "POST",
      headers: { authorization: `Bearer ${customer.token}`, "content-type": "application/json" },
      body: JSON.stringify({ ips: ["127.0.0.1"] }),
    });
    expect(listed.status).toBe(200);
    const before = pageSite.carried();
    // The list reaches the gateway through its change feed: until then the greeting is refused.
    let opened: Awaited<ReturnType<typeof openThrough>> | null = null;
    await expect
      .poll(
        async () => {
          opened = await openThrough({ server: `socks5://127.0.0.1:${socksPort}` }).catch(() => null);
          return opened?.status;
        },
        { timeout: 15_000 },
      )
      .toBe(200);
    const result = opened as unknown as Awaited<ReturnType<typeof openThrough>>;
    expect(result.body?.equals(PAGE)).toBe(true);
    expect(result.end).toBe("the end");
    const { billed, carried } = await settledBilling(customer.token, before);
    expect(billed).toBe(carried);
    expect(billed).toBeGreaterThan(PAGE.length);
  });
});
