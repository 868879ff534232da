import { randomInt } from "node:crypto";
import { LOGIN_RATE_LIMITED } from "@bytetoll/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GLOBAL_REQUESTS_PER_MINUTE } from "../../src/plugins/rate-limit.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
/** A fresh address per run: Redis counters outlive the test and other runs share the server. */
const randomAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await createTestApp({ REDIS_URL });
  second = await createTestApp({ REDIS_URL }, { database: first.database });
});
afterAll(async () => {
  await second.close();
  await first.close();
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
});
