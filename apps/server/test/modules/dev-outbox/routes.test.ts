import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { requestLink } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe("dev outbox", () => {
  it("lists messages newest first, filtered by recipient", async () => {
    await requestLink(t.app, "first@example.com");
    await requestLink(t.app, "second@example.com");
    await requestLink(t.app, "first@example.com");
    const all = (await t.app.inject({ method: "GET", url: "/dev/outbox/messages" })).json().data;
    expect(all.map((message: { to: string }) => message.to)).toEqual([
      "first@example.com",
      "second@example.com",
      "first@example.com",
    ]);
    expect(all[0].id).toBeGreaterThan(all[2].id);
    const mine = await t.app.inject({ method: "GET", url: "/dev/outbox/messages?to=FIRST@example.com" });
    expect(mine.statusCode).toBe(200);
    const data = mine.json().data;
    expect(data).toHaveLength(2);
    expect(Object.keys(data[0]).sort()).toEqual(["created_at", "id", "link", "subject", "text", "to"]);
    expect(data[0].text).toContain(data[0].link);
  });

  it("refuses a malformed filter with a 400", async () => {
    const response = await t.app.inject({ method: "GET", url: `/dev/outbox/messages?to=${"x".repeat(300)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
  });

  it("shows an HTML page with clickable links and every stored value escaped", async () => {
    await requestLink(t.app, "<b>bold</b>@example.com");
    const response = await t.app.inject({ method: "GET", url: "/dev/outbox" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
    expect(response.body).toContain("&lt;b&gt;bold&lt;/b&gt;@example.com");
    expect(response.body).not.toContain("<b>bold</b>");
    expect(response.body).toMatch(
      /<a href="http:\/\/localhost:3000\/magic\/auth\?magic_credential=[\w-]{43}">/,
    );
  });

  it("does not exist in production", async () => {
    const production = await createTestApp({ NODE_ENV: "production" }, { database: t.database });
    onTestFinished(() => production.close());
    await requestLink(production.app, "prod@example.com");
    const json = await production.app.inject({
      method: "GET",
      url: "/dev/outbox/messages?to=prod@example.com",
    });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toEqual({ success: false, message: "Not found" });
    const page = await production.app.inject({
      method: "GET",
      url: "/dev/outbox",
      headers: { accept: "application/json" },
    });
    expect(page.statusCode).toBe(404);
    const asBrowser = await production.app.inject({
      method: "GET",
      url: "/dev/outbox",
      headers: { accept: "text/html" },
    });
    expect(asBrowser.body).not.toContain("Dev outbox");
  });
});
