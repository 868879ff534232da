import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { customer } from "../orders/helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe("GET /account/status", () => {
  it("shows a new customer their free GB", async () => {
    const alice = await customer(t.app, "alice@example.com");
    const response = await t.app.inject({ method: "GET", url: "/account/status", headers: alice.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, data: { balance_gb: 1, balance_bytes: 1e9 } });
  });

  it("shows each customer their own balance", async () => {
    const bob = await customer(t.app, "bob@example.com");
    await t.database.query("UPDATE users SET balance_bytes = 2345678901 WHERE id = $1", [bob.id]);
    const response = await t.app.inject({ method: "GET", url: "/account/status", headers: bob.headers });
    expect(response.json().data).toEqual({ balance_gb: 2.35, balance_bytes: 2_345_678_901 });
  });

  it.each([{}, { authorization: "Bearer nope-nope-nope-nope" }, { authorization: "Basic abc" }])(
    "answers 401 to %j",
    async (headers) => {
      const response = await t.app.inject({ method: "GET", url: "/account/status", headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ success: false, message: "Unauthorized" });
    },
  );
});
