import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violations } from "./fixtures/axe.ts";
import { launchBrowser, SCREEN_SIZES } from "./fixtures/browser.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { signInNewCustomer, signInThroughPage } from "./fixtures/sign-in.ts";

let server: RunningServer;
// bypassCSP lets the accessibility check inject axe; the pages themselves are unchanged.
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("team members", () => {
  for (const size of SCREEN_SIZES) {
    it(`an invited developer switches to the owner's account and sees what the role allows (${size.name})`, async () => {
      const ownerContext = await browser.newContext({ baseURL: server.url, viewport: size, bypassCSP: true });
      const owner = await signInNewCustomer(ownerContext, server, `team-owner-${size.name}`);
      await owner.page.goto("/team");
      await owner.page.getByRole("heading", { name: "Team and API tokens", level: 1 }).waitFor();
      const memberEmail = `team-member-${size.name}-${Date.now()}@example.com`;
      await owner.page.getByLabel("E-mail").fill(memberEmail);
      await owner.page.getByLabel("Role", { exact: true }).selectOption("developer");
      await owner.page.getByRole("button", { name: "Invite" }).click();
      await owner.page.getByRole("status").filter({ hasText: "Invitation sent." }).waitFor();
      await owner.page
        .getByRole("list", { name: "Members" })
        .getByText(memberEmail, { exact: true })
        .waitFor();

      // A scoped token, shown once.
      await owner.page.getByLabel("Token name").fill("ci");
      await owner.page.getByRole("button", { name: "Create token" }).click();
      const token = (await owner.page.getByTestId("new-api-token").textContent()) ?? "";
      expect(token).toMatch(/^bt_/);
      await owner.page.getByRole("button", { name: "Done" }).click();
      await owner.page.getByRole("list", { name: "API tokens" }).getByText("usage:read").waitFor();
      expect(await owner.page.getByText(token).count()).toBe(0);
      expect(await violations(owner.page, `team page (${size.name})`)).toEqual([]);

      const memberContext = await browser.newContext({
        baseURL: server.url,
        viewport: size,
        bypassCSP: true,
      });
      const member = await memberContext.newPage();
      await signInThroughPage(member, server, memberEmail);
      const switcher = member.getByTestId("account-switcher");
      await switcher.waitFor();
      const ownerOption = switcher.locator("option", { hasText: owner.email });
      await switcher.selectOption((await ownerOption.getAttribute("value")) ?? "");
      await expect
        .poll(async () => (await switcher.locator("option:checked").textContent()) ?? "")
        .toContain(`${owner.email} (developer)`);
      // A developer has webhooks but no team management.
      if (size.name !== "phone") {
        const nav = member.getByRole("navigation", { name: "Main" });
        await nav.getByRole("link", { name: "Webhooks" }).waitFor();
        expect(await nav.getByRole("link", { name: "Team" }).count()).toBe(0);
      }
      expect(await violations(member, `member on the owner's account (${size.name})`)).toEqual([]);
      // Their Profile leaves out what the role cannot use (the account's API token, its billing
      // settings) instead of showing an error for it.
      await member.getByTestId("profile-menu").click();
      await member.getByRole("menuitem", { name: "Profile" }).click();
      const profile = member.getByTestId("profile-dialog");
      await profile.getByText("Sign out everywhere").first().waitFor();
      expect(await profile.getByText("API token").count()).toBe(0);
      expect(await profile.getByRole("alert").count()).toBe(0);
      expect(await profile.getByLabel("Refund address").count()).toBe(0);
      await member.keyboard.press("Escape");

      // The owner removes them, behind a confirmation.
      await owner.page.getByRole("button", { name: "Remove…" }).click();
      await owner.page.getByRole("button", { name: `Remove ${memberEmail}` }).click();
      await expect
        .poll(() =>
          owner.page.getByRole("list", { name: "Members" }).getByText(memberEmail, { exact: true }).count(),
        )
        .toBe(0);
      await owner.page.getByRole("list", { name: "Activity" }).getByText("member.removed").waitFor();
      await ownerContext.close();
      await memberContext.close();
    }, 180_000);
  }
});
