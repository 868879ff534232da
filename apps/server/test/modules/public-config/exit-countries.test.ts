import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    MOBILE_UPSTREAMS: "http://127.0.0.1:3128?country=us&country=DE,http://127.0.0.1:3129",
    DATACENTER_UPSTREAMS: "direct?country=fr&country=us",
  });
});
afterAll(() => t?.close());

describe("GET /config", () => {
  it("names the countries the configured exits serve, for the Connect page's selector", async () => {
    const response = await t.app.inject({ method: "GET", url: "/config" });
    expect(response.json().data.gateway.exit_countries).toEqual(["DE", "FR", "US"]);
  });
});
