import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violations } from "./fixtures/axe.ts";
import { launchBrowser, SCREEN_SIZES } from "./fixtures/browser.ts";
import { type ServerWithGateway, startServerWithGateway } from "./fixtures/gateway.ts";
import { signInNewCustomer, tokenOf } from "./fixtures/sign-in.ts";

/** Each request through the gateway carries 2 MB: one takes a 1 MB sub-user past its limit. */
const BODY_BYTES = 2_000_000;
/** Well under the 30 s the page polls at while its socket is down: only a push is this fast. */
const PUSH_DEADLINE_MS = 15_000;

let site: ServerWithGateway;
let browser: Browser;

beforeAll(async () => {
  [site, browser] = await Promise.all([startServerWithGateway(BODY_BYTES), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

describe("a sub-user's limit on the Sub-users page", () => {
  for (const size of SCREEN_SIZES) {
    it(`is set to 1 MB, reached live, and edited with its label (${size.name})`, async () => {
      // bypassCSP: axe is injected as a script, which the page's own policy would refuse.
      const context = await browser.newContext({ baseURL: site.server.url, viewport: size, bypassCSP: true });
      const { page } = await signInNewCustomer(context, site.server, `subuser-limits-${size.name}`);
      await page.goto("/subusers");
      await page.getByRole("button", { name: "New sub-user" }).click();
      const create = page.getByTestId("new-subuser-dialog");
      await create.getByLabel("Label").fill("scraper");
      await create.getByLabel("Limit", { exact: true }).fill("0.5");
      await create.getByLabel("Unit").selectOption("MB");
      await create.getByRole("button", { name: "Create sub-user" }).click();
      await create.getByRole("alert").getByText("A limit must be at least 1 MB.").waitFor();
      await create.getByLabel("Limit", { exact: true }).fill("1");
      await create.getByRole("button", { name: "Create sub-user" }).click();
      const item = page.getByTestId("subuser-item");
      await item.getByText("0 GB of 1 MB in total").waitFor();
      await item.getByText("Its requests are served").waitFor();
      expect(await violations(page, "Sub-users")).toEqual([]);

      const subusers = await fetch(`${site.server.url}/subusers`, {
        headers: { authorization: `Bearer ${await tokenOf(page)}` },
      }).then(
        (response) => response.json() as Promise<{ data: Array<{ username: string; password: string }> }>,
      );
      const [subuser] = subusers.data;
      if (!subuser) throw new Error("the sub-user was not created");
      // The gateway cuts the 2 MB answer once the 1 MB is relayed: how the request ends is not the point.
      await site.getThroughGateway(subuser.username, subuser.password).catch(() => undefined);
      // No reload: the owner's balance push tells the page to read its sub-users again.
      await item
        .getByText("At its limit: its requests are refused until you raise it")
        .waitFor({ timeout: PUSH_DEADLINE_MS });
      expect(await item.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("100");
      await item.getByText("Enabled", { exact: true }).waitFor();

      await item.getByRole("button", { name: "Edit scraper" }).click();
      const edit = page.getByTestId("edit-subuser-dialog");
      expect(await edit.getByLabel("Limit", { exact: true }).inputValue()).toBe("1");
      expect(await edit.getByLabel("Unit").inputValue()).toBe("MB");
      await edit.getByLabel("Label").fill("scraper eu");
      await edit.getByLabel("Limit", { exact: true }).fill("5");
      await edit.getByLabel("Period").selectOption("day");
      expect(await violations(page, "Edit sub-user")).toEqual([]);
      await edit.getByRole("button", { name: "Save changes" }).click();
      await item.getByText("scraper eu").waitFor();
      await item.getByText(/ of 5 MB per day$/).waitFor();
      await item.getByText("Its requests are served").waitFor();
      await expect
        .poll(async () => (await site.getThroughGateway(subuser.username, subuser.password)).status, {
          timeout: PUSH_DEADLINE_MS,
        })
        .toBe(200);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await context.close();
    });
  }
});
