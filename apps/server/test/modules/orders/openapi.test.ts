import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_TOKEN: "admin-token-0123456789abcdef" });
});
afterAll(() => t?.close());

describe("API reference", () => {
  it("documents the order, payment, balance and admin calls", async () => {
    const response = await t.app.inject({ method: "GET", url: "/docs/json" });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    for (const path of [
      "/account/status",
      "/transactions",
      "/transactions/{orderId}",
      "/stripe/sessions",
      "/webhooks/stripe",
      "/webhooks/crypto",
      "/dev/orders/{id}/pay",
      "/admin/credits",
      "/admin/accounts",
      "/admin/orders",
    ]) {
      expect(paths).toContain(path);
    }
  });
});
