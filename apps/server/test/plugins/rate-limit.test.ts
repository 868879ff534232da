import { randomInt } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { LOGIN_RATE_LIMITED } from "@bytetoll/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GLOBAL_REQUESTS_PER_MINUTE } from "../../src/plugins/rate-limit.ts";
import { bearer, signIn } from "../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
/** A fresh address per run: Redis counters outlive the test and other runs share the server. */
const randomAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

let first: TestApp;
let second: TestApp;
let distDir: string;
beforeAll(async () => {
  distDir = mkdtempSync(path.join(tmpdir(), "bytetoll-dist-"));
  mkdirSync(path.join(distDir, "assets"));
  writeFileSync(path.join(distDir, "index.html"), "<!doctype html><title>x</title>");
  writeFileSync(path.join(distDir, "assets", "app-1a2b.js"), "console.log(1)");
  first = await createTestApp({ REDIS_URL, WEB_DIST_DIR: distDir });
  second = await createTestApp({ REDIS_URL }, { database: first.database });
});
afterAll(async () => {
  await second.close();
  await first.close();
  rmSync(distDir, { recursive: true, force: true });
});

describe("rate limits", () => {
  it("counts per-IP login requests across instances through Redis", async () => {
    const address = randomAddress();
    for (let i = 0; i < 20; i++) {
      const app = i % 2 === 0 ? first.app : second.app;
      const response = await app.inject({
        method: "POST",
        url: "/auth/login",
        payload: { email: `shared${i}@example.com` },
        remoteAddress: address,
      });
      expect(response.statusCode).toBe(200);
    }
    for (const app of [first.app, second.app]) {
      const refused = await app.inject({
        method: "POST",
        url: "/auth/login",
        payload: { email: "one-more@example.com" },
        remoteAddress: address,
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ success: false, message: LOGIN_RATE_LIMITED });
    }
  });

  it("limits every route per IP with a global default", async () => {
    const address = randomAddress();
    for (let i = 0; i < GLOBAL_REQUESTS_PER_MINUTE; i++) {
      const response = await first.app.inject({ method: "GET", url: "/config", remoteAddress: address });
      expect(response.statusCode).toBe(200);
    }
    const refused = await first.app.inject({ method: "GET", url: "/config", remoteAddress: address });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().success).toBe(false);
    expect(refused.headers["retry-after"]).toBeDefined();
  });

  it("never limits the dashboard's own files, however often a page is reloaded", async () => {
    const address = randomAddress();
    for (let i = 0; i <= GLOBAL_REQUESTS_PER_MINUTE; i++) {
      const asset = await first.app.inject({
        method: "GET",
        url: "/assets/app-1a2b.js",
        remoteAddress: address,
      });
      expect(asset.statusCode).toBe(200);
    }
    const page = await first.app.inject({
      method: "GET",
      url: "/index.html",
      headers: { accept: "text/html" },
      remoteAddress: address,
    });
    expect(page.statusCode).toBe(200);
    // The address's API budget is untouched by all those files.
    const api = await first.app.inject({ method: "GET", url: "/config", remoteAddress: address });
    expect(api.headers["x-ratelimit-remaining"]).toBe(String(GLOBAL_REQUESTS_PER_MINUTE - 1));
  });

  it("counts signed-in calls per user, so customers behind one address do not lock each other out", async () => {
    const address = randomAddress();
    const busy = await signIn(first.app, `busy-${randomInt(1e9)}@example.com`);
    const neighbour = await signIn(first.app, `neighbour-${randomInt(1e9)}@example.com`);
    const status = (token: string) =>
      first.app.inject({
        method: "GET",
        url: "/account/status",
        headers: bearer(token),
        remoteAddress: address,
      });
    for (let i = 0; i < GLOBAL_REQUESTS_PER_MINUTE; i++)
      expect((await status(busy.token)).statusCode).toBe(200);
    expect((await status(busy.token)).statusCode).toBe(429);
    expect((await status(neighbour.token)).statusCode).toBe(200);
    // A made-up token counts against the address, not a fresh budget of its own.
    const forged = await first.app.inject({
      method: "GET",
      url: "/account/status",
      headers: bearer(`${busy.token.slice(0, -4)}AAAA`),
      remoteAddress: address,
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.headers["x-ratelimit-remaining"]).toBe(String(GLOBAL_REQUESTS_PER_MINUTE - 1));
  });
});
