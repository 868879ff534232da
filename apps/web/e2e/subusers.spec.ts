import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, SCREEN_SIZES } from "./fixtures/browser.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { signInNewCustomer } from "./fixtures/sign-in.ts";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the Sub-users page", () => {
  for (const size of SCREEN_SIZES) {
    it(`is in the navigation, creates a sub-user with a limit, switches it off, renews and deletes it (${size.name})`, async () => {
      const context = await browser.newContext({ baseURL: server.url, viewport: size });
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      const { page } = await signInNewCustomer(context, server, `subusers-${size.name}`);
      if (size.name === "phone") await page.getByRole("button", { name: "Open menu" }).click();
      await page.getByRole("link", { name: "Sub-users" }).first().click();
      await page.getByRole("heading", { name: "Sub-users", level: 1 }).waitFor();
      await page.getByText("No sub-users yet.").waitFor();

      await page.getByRole("button", { name: "New sub-user" }).click();
      const dialog = page.getByTestId("new-subuser-dialog");
      await dialog.getByLabel("Label").fill("crawler");
      await dialog.getByLabel("Limit", { exact: true }).fill("2.5");
      await dialog.getByLabel("Period").selectOption("week");
      await dialog.getByRole("button", { name: "Create sub-user" }).click();
      const item = page.getByTestId("subuser-item");
      await item.getByText("crawler").waitFor();
      await item.getByText("of 2.5 GB per week").waitFor();
      expect(await item.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("0");
      const username = (await item.getByTestId("subuser-username").textContent()) ?? "";
      expect(username).toMatch(/^su[a-z0-9]{10}$/);
      await item.getByRole("button", { name: "Copy crawler username" }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(username);
      await page.screenshot({ path: `/tmp/subusers-${size.name}.png`, fullPage: true });
      // Nothing sticks out sideways on either screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      await item.getByRole("switch", { name: "Enabled" }).click();
      await item.getByText("Its requests are refused").waitFor();
      // The text beside the switch says what the switch is now.
      await item.getByText("Disabled", { exact: true }).waitFor();
      expect(await item.getByText("Enabled", { exact: true }).count()).toBe(0);
      await item.getByRole("button", { name: "Copy crawler password" }).click();
      const before = await page.evaluate(() => navigator.clipboard.readText());
      await item.getByRole("button", { name: "Regenerate password" }).click();
      await expect
        .poll(async () => {
          await item.getByRole("button", { name: "Copy crawler password" }).click();
          return page.evaluate(() => navigator.clipboard.readText());
        })
        .not.toBe(before);

      await item.getByRole("button", { name: "Delete" }).click();
      await page.getByRole("button", { name: "Delete sub-user" }).click();
      await page.getByText("No sub-users yet.").waitFor();
      await context.close();
    });
  }
});
