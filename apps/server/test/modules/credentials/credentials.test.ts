import { hashSecret } from "@bytetoll/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, latestLinkToken, requestLink, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const latest = (token: string) =>
  t.app.inject({ method: "GET", url: "/credentials/latest", headers: bearer(token) });

const storedRow = async (username: string) =>
  (
    await t.database.query<{ user_id: string | null; password_hash: string; password_enc: string }>(
      "SELECT user_id, password_hash, password_enc FROM proxy_credentials WHERE username = $1",
      [username],
    )
  )[0];

describe("GET /credentials/latest", () => {
  it("refuses a caller without a valid token", async () => {
    expect((await t.app.inject({ method: "GET", url: "/credentials/latest" })).statusCode).toBe(401);
    const response = await latest("not-a-real-token-at-all");
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: "Unauthorized" });
  });

  it("creates one credential set on first read and returns the same one afterwards", async () => {
    const { token, id } = await signIn(t.app, "first-read@example.com");
    const first = await latest(token);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.success).toBe(true);
    expect(body.data.username).toMatch(/^bt[a-z0-9]{10}$/);
    expect(body.data.password).toMatch(/^[A-Za-z0-9_-]{24,}$/);
    expect(body.data.options).toEqual({ use_sticky: false });
    expect((await latest(token)).json().data).toEqual(body.data);

    const row = await storedRow(body.data.username);
    expect(row?.user_id).toBe(id);
    expect(row?.password_hash).toBe(hashSecret(body.data.password));
    expect(row?.password_enc).not.toContain(body.data.password);
  });

  it("agrees on a single set when the first reads race", async () => {
    const { token, id } = await signIn(t.app, "racer@example.com");
    const replies = await Promise.all(Array.from({ length: 5 }, () => latest(token)));
    const usernames = new Set(replies.map((reply) => reply.json().data.username));
    expect(usernames.size).toBe(1);
    const rows = await t.database.query("SELECT id FROM proxy_credentials WHERE user_id = $1", [id]);
    expect(rows).toHaveLength(1);
  });

  it("gives each account its own set and never another's", async () => {
    const alice = await signIn(t.app, "alice@example.com");
    const bob = await signIn(t.app, "bob@example.com");
    const aliceSet = (await latest(alice.token)).json().data;
    const bobSet = (await latest(bob.token)).json().data;
    expect(aliceSet.username).not.toBe(bobSet.username);
    expect((await storedRow(aliceSet.username))?.user_id).toBe(alice.id);
    expect((await storedRow(bobSet.username))?.user_id).toBe(bob.id);
  });
});

describe("POST /credentials/regenerate", () => {
  it("keeps the username, replaces the password and leaves other accounts alone", async () => {
    const owner = await signIn(t.app, "rotator@example.com");
    const other = await signIn(t.app, "bystander@example.com");
    const before = (await latest(owner.token)).json().data;
    const otherBefore = (await latest(other.token)).json().data;

    const response = await t.app.inject({
      method: "POST",
      url: "/credentials/regenerate",
      headers: bearer(owner.token),
    });
    expect(response.statusCode).toBe(200);
    const after = response.json().data;
    expect(after.username).toBe(before.username);
    expect(after.password).not.toBe(before.password);
    expect((await latest(owner.token)).json().data.password).toBe(after.password);
    expect((await storedRow(after.username))?.password_hash).toBe(hashSecret(after.password));
    expect((await latest(other.token)).json().data).toEqual(otherBefore);
  });

  it("creates the set when regenerating before ever reading it", async () => {
    const { token } = await signIn(t.app, "eager@example.com");
    const response = await t.app.inject({
      method: "POST",
      url: "/credentials/regenerate",
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(200);
    expect((await latest(token)).json().data).toEqual(response.json().data);
  });

  it("refuses a caller without a token", async () => {
    const response = await t.app.inject({ method: "POST", url: "/credentials/regenerate" });
    expect(response.statusCode).toBe(401);
  });
});

describe("GET /credentials/unique", () => {
  const unique = (ip: string) =>
    t.app.inject({ method: "GET", url: "/credentials/unique", remoteAddress: ip });

  it("hands an anonymous visitor a fresh unclaimed set each time", async () => {
    const first = await unique("198.51.100.7");
    const second = await unique("198.51.100.7");
    expect(first.statusCode).toBe(200);
    const a = first.json().data;
    const b = second.json().data;
    expect(Object.keys(a).sort()).toEqual(["password", "username"]);
    expect(a.username).toMatch(/^bt[a-z0-9]{10}$/);
    expect(a.username).not.toBe(b.username);
    const row = await storedRow(a.username);
    expect(row?.user_id).toBeNull();
    expect(row?.password_hash).toBe(hashSecret(a.password));
  });

  it("limits how many sets one address can take per hour", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await unique("203.0.113.99")).statusCode);
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    const refused = await unique("203.0.113.99");
    expect(refused.statusCode).toBe(429);
    expect(refused.json().success).toBe(false);
    // Another address is not affected.
    expect((await unique("203.0.113.100")).statusCode).toBe(200);
  });

  it("becomes the account's set when the visitor signs up with it prefilled", async () => {
    const temporary = (await unique("192.0.2.50")).json().data;
    const email = "claimed-visitor@example.com";
    await requestLink(t.app, email, { username: temporary.username, password: temporary.password });
    // The browser that asked for the link presents the set again when following it.
    const verified = await t.app.inject({
      method: "POST",
      url: "/auth/magic/verify",
      payload: { access_token: await latestLinkToken(t.app, email), ...temporary },
    });
    expect(verified.statusCode).toBe(200);
    const own = (await latest(verified.json().data.token)).json().data;
    expect(own).toEqual({ ...temporary, options: { use_sticky: false } });
  });
});
