import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violations } from "./fixtures/axe.ts";
import { launchBrowser, SCREEN_SIZES } from "./fixtures/browser.ts";
import { type ServerWithGateway, startServerWithGateway } from "./fixtures/gateway.ts";
import { signInNewCustomer } from "./fixtures/sign-in.ts";

/** An operator's exit: a forward proxy that relays absolute-form requests and counts them. */
interface Exit {
  url: string;
  served: number;
  close(): Promise<void>;
}

async function startExit(): Promise<Exit> {
  const exit = { served: 0 } as Exit;
  const server = http.createServer((request, response) => {
    exit.served++;
    const { "proxy-authorization": _, ...headers } = request.headers;
    const onward = http.request(request.url ?? "", { method: request.method, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    onward.on("error", () => response.writeHead(502).end());
    request.pipe(onward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  exit.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  exit.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return exit;
}

let site: ServerWithGateway;
let browser: Browser;
let us: Exit;
let de: Exit;

beforeAll(async () => {
  [us, de] = await Promise.all([startExit(), startExit()]);
  [site, browser] = await Promise.all([
    startServerWithGateway(20_000, { MOBILE_UPSTREAMS: `${us.url}?country=us,${de.url}?country=de` }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await Promise.all([us?.close(), de?.close()]);
});

/** A GET through the gateway with no credentials at all: admitted only from an authorized address. */
function withoutCredentials(): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = site.origin.url("/file");
    const request = http.request(
      {
        host: "127.0.0.1",
        port: site.gatewayPort,
        path: target,
        agent: false,
        headers: { host: new URL(target).host },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

/** A GET of `url` sent from the local address `from`, as curl on that machine would: its status. */
function fetchFrom(url: string, from: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { localAddress: from, agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
  });
}

describe("the Connect page's targeting", () => {
  for (const size of SCREEN_SIZES) {
    it(`builds a username with an exit country and a session lifetime that the gateway routes, and authorizes the visitor's address (${size.name})`, async () => {
      // bypassCSP: axe is injected as a script, which the page's own policy would refuse.
      const context = await browser.newContext({ baseURL: site.server.url, viewport: size, bypassCSP: true });
      const { page } = await signInNewCustomer(context, site.server, `targeting-${size.name}`);
      await page.goto("/connect");
      const credentials = page.getByRole("region", { name: "Credentials" });
      await credentials
        .getByRole("combobox", { name: "Exit country" })
        .selectOption({ label: "Germany (DE)" });
      await credentials.getByRole("switch", { name: "Sticky session" }).click();
      await credentials.getByRole("spinbutton", { name: "Session lifetime (minutes)" }).fill("30");
      const username = credentials.getByRole("textbox", { name: "Username" });
      await expect
        .poll(() => username.inputValue())
        .toMatch(/^bt[a-z0-9]+-country-de-session-[A-Za-z0-9]{8}-sesstime-30$/);
      const password = await credentials.getByRole("textbox", { name: "Password" }).inputValue();

      // A lifetime the gateway would refuse is named in its own words; the username keeps 30.
      const lifetime = credentials.getByRole("spinbutton", { name: "Session lifetime (minutes)" });
      const shown = await username.inputValue();
      for (const bad of ["0", "9999"]) {
        await lifetime.fill(bad);
        await credentials
          .getByRole("alert")
          .getByText(`Bad session lifetime '${bad}': minutes from 1 to 1440. The username keeps 30 minutes.`)
          .waitFor();
        expect(await username.inputValue()).toBe(shown);
      }
      await lifetime.fill("30");
      // A reload keeps the lifetime with the session id: the username copied before still matches.
      await page.reload();
      await expect.poll(() => username.inputValue()).toBe(shown);
      expect(await lifetime.inputValue()).toBe("30");

      // The username as shown goes out through the German exit only.
      const before = { us: us.served, de: de.served };
      const answer = await site.getThroughGateway(await username.inputValue(), password);
      expect(answer.status).toBe(200);
      expect({ us: us.served - before.us, de: de.served - before.de }).toEqual({ us: 0, de: 1 });

      // "Add my IP": from then on a request without credentials from this address is the account's.
      const allowlist = page.getByRole("region", { name: "Authorized IPs" });
      expect(await withoutCredentials()).toBe(407);
      await allowlist.getByRole("button", { name: "Add my IP (127.0.0.1)" }).click();
      await allowlist.getByRole("list", { name: "Authorized IPs" }).getByText("127.0.0.1").waitFor();
      await expect.poll(withoutCredentials, { timeout: 5_000, interval: 100 }).toBe(200);
      // The field has room on a phone, and the card's example without credentials runs as shown
      // (aimed at the loopback origin instead of the public site, so nothing leaves this machine).
      const field = allowlist.getByRole("textbox", { name: "IP address or range" });
      expect((await field.boundingBox())?.width).toBeGreaterThan(250);
      const example = (await allowlist.locator("pre").textContent()) ?? "";
      const lines = example.split("\n");
      expect(lines[0]).toMatch(
        new RegExp(`^curl --proxy 'http://[^']+:${site.gatewayPort}' 'https://ipinfo.io/json'$`),
      );
      for (const line of lines) {
        expect(line).not.toContain("--proxy-user");
        const runnable = line.replace("https://ipinfo.io/json", site.origin.url("/file"));
        const status = await new Promise<string>((resolve, reject) =>
          execFile(
            "sh",
            ["-c", `${runnable} --silent --show-error --output /dev/null --write-out '%{http_code}'`],
            (error, stdout) => (error ? reject(error) : resolve(stdout)),
          ),
        );
        expect(status, line).toBe("200");
      }

      // Another address waits for its proof: the link, opened from that address, makes it active.
      const other = size === SCREEN_SIZES[0] ? "127.0.0.2" : "127.0.0.3";
      await allowlist.getByRole("textbox", { name: "IP address or range" }).fill(other);
      await allowlist.getByRole("button", { name: "Add", exact: true }).click();
      const link = allowlist.getByRole("textbox", { name: `Proof link for ${other}` });
      await link.waitFor();
      expect(await allowlist.getByText("Waiting for proof").count()).toBe(1);
      // The link fits the page at every size, as the rest of the card does.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await allowlist.screenshot({ path: `/tmp/connect-allowlist-pending-${size.name}.png` });
      expect(await fetchFrom(await link.inputValue(), other)).toBe(200);
      await link.waitFor({ state: "detached", timeout: 10_000 });
      expect(await allowlist.getByText("Active").count()).toBe(2);

      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: `/tmp/connect-targeting-${size.name}.png`, fullPage: true });
      expect(await violations(page, `/connect (${size.name})`)).toEqual([]);

      // Removed again: refused without credentials, and the address is free for the next account.
      await allowlist.getByRole("button", { name: `Remove ${other}` }).click();
      await allowlist.getByRole("button", { name: `Remove ${other}` }).waitFor({ state: "detached" });
      await allowlist.getByRole("button", { name: "Remove 127.0.0.1" }).click();
      await allowlist.getByRole("button", { name: "Add my IP (127.0.0.1)" }).waitFor();
      await expect.poll(withoutCredentials, { timeout: 5_000, interval: 100 }).toBe(407);
      await context.close();
    });
  }
});
