import { LOGIN_LINK_INVALID } from "@bytetoll/contracts";
import { hashSecret } from "@bytetoll/db";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestLinkToken, requestLink, signIn, verify } from "../../helpers/sign-in.ts";
import { createTestApp, TEST_APP_URL, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const count = async (sql: string, params: unknown[] = []) =>
  Number((await t.database.query<{ n: string }>(`SELECT count(*) AS n FROM (${sql}) q`, params))[0]!.n);

describe("POST /magic/check", () => {
  it("accepts the normalised e-mail with the same reply each time and creates no account", async () => {
    const first = await t.app.inject({
      method: "POST",
      url: "/magic/check",
      payload: { email: "  New.User@Example.COM " },
    });
    const second = await t.app.inject({
      method: "POST",
      url: "/magic/check",
      payload: { email: "new.user@example.com" },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true, data: { orderId: null } });
    expect(second.body).toBe(first.body);
    expect(await count("SELECT 1 FROM users WHERE email = 'new.user@example.com'")).toBe(0);
  });

  it("answers a purchase amount without making an order and a deal (none live yet) with 404", async () => {
    const purchase = await t.app.inject({
      method: "POST",
      url: "/magic/check",
      payload: { email: "buyer@example.com", addFreeCredit: true, purchaseAmount: 300 },
    });
    expect(purchase.statusCode).toBe(200);
    expect(purchase.json()).toEqual({ success: true, data: { orderId: null } });
    const deal = await t.app.inject({
      method: "POST",
      url: "/magic/check",
      payload: { email: "buyer@example.com", addFreeCredit: true, dealId: 7, purchaseAmount: 300 },
    });
    expect(deal.statusCode).toBe(404);
    expect(deal.json()).toEqual({
      success: false,
      message: "This deal is no longer available. Please check back again soon.",
    });
  });

  it.each([
    [{}, "Email is required for login."],
    [{ email: "" }, "Email is required for login."],
    [{ email: "   " }, "Email is required for login."],
    [{ email: "not-an-email" }, "Please enter a valid email address."],
    [{ email: "a..b@example.com" }, "Please enter a valid email address."],
    [{ email: `${"a".repeat(250)}@example.com` }, "Please enter a valid email address."],
  ])("refuses %j with 400 %s and creates nothing", async (payload, message) => {
    const before = await count("SELECT 1 FROM users");
    const response = await t.app.inject({ method: "POST", url: "/magic/check", payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message });
    expect(await count("SELECT 1 FROM users")).toBe(before);
  });

  it.each([
    ["dealId", 0],
    ["dealId", -3],
    ["dealId", 1.5],
    ["dealId", "abc"],
    ["purchaseAmount", 0],
    ["purchaseAmount", 2.5],
    ["purchaseAmount", "100"],
  ])("refuses %s = %j with a 400 naming the field", async (field, value) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/magic/check",
      payload: { email: "fields@example.com", [field]: value },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(field);
    expect(await count("SELECT 1 FROM users WHERE email = 'fields@example.com'")).toBe(0);
  });
});

describe("POST /auth/login", () => {
  it("e-mails a link to /magic/auth and prints it to the console", async () => {
    const response = await requestLink(t.app, "Link@Example.com");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: "Login link sent" });
    const token = await latestLinkToken(t.app, "link@example.com");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const link = `${TEST_APP_URL}/magic/auth?magic_credential=${token}`;
    expect(t.printed).toContain(`Login link for link@example.com: ${link}`);
  });

  it("puts the order id in the link path when one is given", async () => {
    await requestLink(t.app, "order@example.com", { orderId: "ord_42" });
    const messages = await t.app.inject({ method: "GET", url: "/dev/outbox/messages?to=order@example.com" });
    expect(messages.json().data[0].link).toMatch(
      new RegExp(`^${TEST_APP_URL}/magic/auth/order/ord_42\\?magic_credential=[A-Za-z0-9_-]{43}$`),
    );
  });

  it("stores only the hash of the link token", async () => {
    await requestLink(t.app, "hashed@example.com");
    const token = await latestLinkToken(t.app, "hashed@example.com");
    const rows = await t.database.query<{ token_hash: string }>(
      "SELECT token_hash FROM login_tokens WHERE email = 'hashed@example.com'",
    );
    expect(rows).toEqual([{ token_hash: hashSecret(token) }]);
  });

  it("replies the same whether or not the account exists", async () => {
    await t.app.inject({ method: "POST", url: "/magic/check", payload: { email: "exists@example.com" } });
    const existing = await requestLink(t.app, "exists@example.com");
    const unknown = await requestLink(t.app, "never-seen@example.com");
    expect(unknown.statusCode).toBe(existing.statusCode);
    expect(unknown.body).toBe(existing.body);
  });

  it.each([
    [{ email: "bad" }, "Please enter a valid email address."],
    [{ email: "ok@example.com", orderId: "../../etc" }, "orderId must be 1-64 letters, digits, - or _"],
    [{ email: "ok@example.com", purchaseAmount: -1 }, "purchaseAmount must be greater than 0"],
  ])("refuses %j with a 400 and sends nothing", async (payload, message) => {
    const before = await count("SELECT 1 FROM login_tokens");
    const outboxBefore = await count("SELECT 1 FROM outbox_messages");
    const response = await t.app.inject({ method: "POST", url: "/auth/login", payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message });
    expect(await count("SELECT 1 FROM login_tokens")).toBe(before);
    expect(await count("SELECT 1 FROM outbox_messages")).toBe(outboxBefore);
  });
});

describe("POST /auth/magic/verify", () => {
  it("exchanges the link for an app token with a 30-day exp and opens a session", async () => {
    await requestLink(t.app, "verify@example.com");
    const response = await verify(t.app, await latestLinkToken(t.app, "verify@example.com"));
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.email).toBe("verify@example.com");
    const claims = decodeJwt(data.token);
    expect(claims.sub).toBe(data.id);
    expect(claims.exp).toBe(data.exp);
    const thirtyDays = 30 * 24 * 3600;
    expect(Math.abs(data.exp - Math.floor(Date.now() / 1000) - thirtyDays)).toBeLessThan(3600);
    const sessions = await t.database.query("SELECT 1 FROM sessions WHERE id = $1 AND user_id = $2", [
      claims.sid,
      data.id,
    ]);
    expect(sessions).toHaveLength(1);
  });

  it("credits the free GB once per account, however often the user signs in", async () => {
    const first = await signIn(t.app, "free@example.com");
    await signIn(t.app, "free@example.com");
    const [user] = await t.database.query<{ balance_bytes: string }>(
      "SELECT balance_bytes FROM users WHERE id = $1",
      [first.id],
    );
    expect(Number(user!.balance_bytes)).toBe(1e9);
    expect(
      await count("SELECT 1 FROM ledger_entries WHERE user_id = $1 AND kind = 'bonus'", [first.id]),
    ).toBe(1);
  });

  it("refuses a link that was already used", async () => {
    await requestLink(t.app, "once@example.com");
    const token = await latestLinkToken(t.app, "once@example.com");
    expect((await verify(t.app, token)).statusCode).toBe(200);
    const again = await verify(t.app, token);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ success: false, message: LOGIN_LINK_INVALID });
  });

  it("refuses an expired link", async () => {
    await requestLink(t.app, "late@example.com");
    const token = await latestLinkToken(t.app, "late@example.com");
    await t.database.query(
      "UPDATE login_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1",
      [hashSecret(token)],
    );
    const response = await verify(t.app, token);
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe(LOGIN_LINK_INVALID);
    expect(
      await count(
        "SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = 'late@example.com'",
      ),
    ).toBe(0);
  });

  it("refuses a link whose account no longer has that e-mail", async () => {
    await signIn(t.app, "moved@example.com");
    await requestLink(t.app, "moved@example.com");
    const token = await latestLinkToken(t.app, "moved@example.com");
    await t.database.query(
      "UPDATE users SET email = 'moved-away@example.com' WHERE email = 'moved@example.com'",
    );
    expect((await verify(t.app, token)).statusCode).toBe(401);
  });

  it("refuses unknown and malformed tokens without changing anything", async () => {
    const sessionsBefore = await count("SELECT 1 FROM sessions");
    const unknown = await verify(t.app, "A".repeat(43));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe(LOGIN_LINK_INVALID);
    const empty = await verify(t.app, "");
    expect(empty.statusCode).toBe(400);
    const missing = await t.app.inject({ method: "POST", url: "/auth/magic/verify", payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain("access_token");
    const notJson = await t.app.inject({ method: "POST", url: "/auth/magic/verify" });
    expect(notJson.statusCode).toBe(400);
    expect(await count("SELECT 1 FROM sessions")).toBe(sessionsBefore);
  });

  it("lets exactly one of many concurrent uses of a link succeed", async () => {
    await requestLink(t.app, "race@example.com");
    const token = await latestLinkToken(t.app, "race@example.com");
    const responses = await Promise.all(Array.from({ length: 6 }, () => verify(t.app, token)));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 401, 401, 401, 401, 401]);
    expect(
      await count(
        "SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = 'race@example.com'",
      ),
    ).toBe(1);
  });
});

describe("hostile input", () => {
  it.each([
    ["/magic/check", { email: "nul\u0000byte@example.com" }],
    ["/auth/login", { email: "nul\u0000byte@example.com" }],
    ["/auth/login", { email: "ok@example.com", username: "anon\u0000", password: "x" }],
    ["/auth/login", { email: "ok@example.com", username: "anon", password: "with space" }],
    ["/auth/magic/verify", { access_token: "\u0000".repeat(43) }],
    ["/auth/magic/verify", { access_token: "x".repeat(600) }],
  ])("answers POST %s %j with a 4xx", async (url, payload) => {
    const response = await t.app.inject({ method: "POST", url, payload });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().success).toBe(false);
  });

  it("answers a control character in the outbox filter with a 400", async () => {
    const response = await t.app.inject({ method: "GET", url: "/dev/outbox/messages?to=a%00b" });
    expect(response.statusCode).toBe(400);
  });

  it("answers an oversized body with a 413", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email: "big@example.com", padding: "x".repeat(300_000) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().success).toBe(false);
  });
});
