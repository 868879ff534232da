import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, SCREEN_SIZES } from "./fixtures/browser.ts";
import { type RunningServer, startServer } from "./fixtures/server.ts";
import { signInNewCustomer } from "./fixtures/sign-in.ts";

let server: RunningServer;
let browser: Browser;
let receiver: Server;
let receiverUrl: string;
const bodies: Array<{ body: string; signature: string }> = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      bodies.push({
        body: Buffer.concat(chunks).toString(),
        signature: String(request.headers["bytetoll-signature"]),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // The receiver is on loopback: EGRESS_ALLOW opens it, as an operator testing locally would.
  [server, browser] = await Promise.all([startServer({ EGRESS_ALLOW: "127.0.0.0/8" }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  receiver?.closeAllConnections();
  receiver?.close();
});

describe("the Webhooks page", () => {
  for (const size of SCREEN_SIZES) {
    it(`adds an endpoint, shows its secret once, sends a test and logs it (${size.name})`, async () => {
      const context = await browser.newContext({ baseURL: server.url, viewport: size });
      const { page } = await signInNewCustomer(context, server, `webhooks-${size.name}`);
      await page.goto("/webhooks");
      await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
      await page.getByLabel("Endpoint URL").fill(receiverUrl);
      await page.getByRole("checkbox", { name: "balance.low" }).check();
      await page.getByRole("button", { name: "Add endpoint" }).click();
      const shown = page.getByRole("status").filter({ hasText: "not shown again" });
      await shown.waitFor();
      const secret = (await shown.locator("code").textContent()) ?? "";
      expect(secret).toMatch(/^whsec_/);
      await page.screenshot({ path: `/tmp/webhooks-secret-${size.name}.png`, fullPage: true });
      await page.getByRole("button", { name: "Done" }).click();
      // Afterwards only its last 4 characters are on the page.
      await page.getByText(`secret ends in ${secret.slice(-4)}`).waitFor();
      expect(await page.getByText(secret).count()).toBe(0);

      const before = bodies.length;
      await page.getByRole("button", { name: "Send test" }).click();
      // Sooner than the log's 5 s refresh: a pending row is read again every second.
      await page.getByRole("cell", { name: "delivered (204)" }).waitFor({ timeout: 4_000 });
      const ping = bodies[before];
      expect(JSON.parse(ping?.body ?? "{}").type).toBe("ping");
      const [t, v1] = (ping?.signature ?? "").split(",").map((part) => part.split("=")[1]);
      expect(createHmac("sha256", secret).update(`${t}.${ping?.body}`).digest("hex")).toBe(v1);
      await page.screenshot({ path: `/tmp/webhooks-log-${size.name}.png`, fullPage: true });
      // Nothing sticks out sideways on either screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      await page.getByRole("button", { name: "Remove" }).click();
      await page.getByText("No endpoints yet.").waitFor();
      await context.close();
    });
  }
});
