import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violations } from "./fixtures/axe.ts";
import { launchBrowser, SCREEN_SIZES } from "./fixtures/browser.ts";
import { type ServerWithGateway, startServerWithGateway } from "./fixtures/gateway.ts";
import { signInNewCustomer } from "./fixtures/sign-in.ts";

const run = promisify(execFile);

let site: ServerWithGateway;
let browser: Browser;

beforeAll(async () => {
  [site, browser] = await Promise.all([startServerWithGateway(2_000), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

/** curl through a proxy line given to -x as it stands: the status it got. */
async function curlStatus(proxyLine: string): Promise<string> {
  const { stdout } = await run("curl", [
    "-s",
    "-o",
    "/dev/null",
    "-w",
    "%{http_code}",
    "--max-time",
    "15",
    "-x",
    proxyLine,
    site.origin.url("/file"),
  ]);
  return stdout;
}

describe("the Connect page's proxy list", () => {
  for (const size of SCREEN_SIZES) {
    it(`previews, copies and mints a revocable download URL whose lines work through the gateway (${size.name})`, async () => {
      const context = await browser.newContext({ baseURL: site.server.url, viewport: size, bypassCSP: true });
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      const { page } = await signInNewCustomer(context, site.server, `proxy-list-${size.name}`);
      await page.goto("/connect");
      // The exit city goes into the username and the list; the gateway passes it to exits that
      // take a city and serves the others as it stands.
      await page
        .getByRole("region", { name: "Credentials" })
        .getByRole("textbox", { name: "Exit city" })
        .fill("berlin");
      await expect
        .poll(() => page.getByRole("textbox", { name: "Username" }).inputValue())
        .toMatch(/^bt[a-z0-9]+-city-berlin$/);
      const card = page.getByRole("region", { name: "Proxy list" });
      await card.getByRole("spinbutton", { name: "Lines" }).fill("3");
      await card.getByRole("combobox", { name: "Format" }).selectOption("url");
      const preview = card.getByTestId("proxy-list-preview");
      await expect
        .poll(async () => ((await preview.textContent()) ?? "").split("\n").filter(Boolean).length)
        .toBe(3);
      const [line] = ((await preview.textContent()) ?? "").split("\n");
      expect(line).toMatch(new RegExp(`^http://bt[a-z0-9]+-city-berlin:[^@]+@[^:]+:${site.gatewayPort}$`));
      expect(await curlStatus(line as string)).toBe("200");

      await card.getByRole("button", { name: "Copy the list" }).click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain(line);

      // A count the API would refuse is named, and nothing is asked for.
      await card.getByRole("spinbutton", { name: "Lines" }).fill("0");
      await card.getByRole("alert").getByText("count must be from 1 to 10000").waitFor();
      await card.getByRole("spinbutton", { name: "Lines" }).fill("4");

      await card.getByRole("button", { name: "Create download URL" }).click();
      const minted = card.getByRole("textbox", { name: "New download URL" });
      await minted.waitFor();
      const url = await minted.inputValue();
      const fetched = await fetch(url.replace(/^https?:\/\/[^/]+/, site.server.url));
      expect(fetched.status).toBe(200);
      const fleet = (await fetched.text()).split("\n").filter(Boolean);
      expect(fleet).toHaveLength(4);
      expect(await curlStatus(fleet[0] as string)).toBe("200");

      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await violations(page, `/connect proxy list (${size.name})`)).toEqual([]);

      await card.getByRole("button", { name: /^Revoke/ }).click();
      await card.getByRole("alertdialog").getByRole("button", { name: "Yes, revoke" }).click();
      await card.getByRole("list", { name: "Download URLs in use" }).waitFor({ state: "detached" });
      expect((await fetch(url.replace(/^https?:\/\/[^/]+/, site.server.url))).status).toBe(404);
      await page.screenshot({ path: `/tmp/connect-proxy-list-${size.name}.png`, fullPage: true });
      await context.close();
    });
  }
});
