import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_APP_URL, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe("MARKETING_URL", () => {
  it("is where the Promotions share links point: APP_URL unless set", async () => {
    const plain = await t.app.inject({ method: "GET", url: "/config" });
    expect(plain.json().data.marketing_url).toBe(TEST_APP_URL);
    const set = await createTestApp({ MARKETING_URL: "https://bytetoll.example/" }, { database: t.database });
    try {
      const response = await set.app.inject({ method: "GET", url: "/config" });
      expect(response.json().data.marketing_url).toBe("https://bytetoll.example/");
    } finally {
      await set.close();
    }
  });
});
