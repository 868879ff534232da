import { hashSecret, randomSecret } from "@bytetoll/db";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signAppToken } from "../../../src/lib/app-token.ts";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const session = (headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url: "/auth/session", headers });
const logout = (headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url: "/auth/logout", headers });

describe("GET /auth/session", () => {
  it("returns the signed-in user's id, email and refund_address", async () => {
    const alice = await signIn(t.app, "alice@example.com");
    const response = await session(bearer(alice.token));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        id: alice.id,
        email: "alice@example.com",
        refund_address: null,
        is_operator: false,
        second_factor: false,
        operator_factor_missing: false,
      },
    });
  });

  it("shows each user only their own account", async () => {
    const alice = await signIn(t.app, "alice2@example.com");
    const bob = await signIn(t.app, "bob2@example.com");
    expect((await session(bearer(alice.token))).json().data.email).toBe("alice2@example.com");
    expect((await session(bearer(bob.token))).json().data.email).toBe("bob2@example.com");
  });

  it("refuses a token that names another user's session", async () => {
    const alice = await signIn(t.app, "alice3@example.com");
    const bob = await signIn(t.app, "bob3@example.com");
    const bobSession = decodeJwt(bob.token).sid as string;
    const forged = await signAppToken(t.config.JWT_SECRET, {
      userId: alice.id,
      sessionId: bobSession,
      exp: alice.exp,
    });
    expect((await session(bearer(forged))).statusCode).toBe(401);
  });

  it.each([
    ["no header", {}],
    ["a non-bearer scheme", { authorization: "Basic dXNlcjpwYXNz" }],
    ["an empty bearer", { authorization: "Bearer " }],
    ["garbage", { authorization: "Bearer not-a-token-at-all-really" }],
    ["a JWT-shaped garbage", { authorization: "Bearer aaaaaaaa.bbbbbbbbbb.cccccccccc" }],
  ])("answers %s with 401 Unauthorized", async (_label, headers) => {
    const response = await session(headers);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: "Unauthorized" });
  });

  it("refuses a token signed with another secret", async () => {
    const alice = await signIn(t.app, "alice4@example.com");
    const claims = decodeJwt(alice.token);
    const foreign = await signAppToken("another-secret-another-secret-another", {
      userId: alice.id,
      sessionId: claims.sid as string,
      exp: alice.exp,
    });
    expect((await session(bearer(foreign))).statusCode).toBe(401);
  });

  it("refuses an expired token even though its session is live", async () => {
    const alice = await signIn(t.app, "alice5@example.com");
    const expired = await signAppToken(t.config.JWT_SECRET, {
      userId: alice.id,
      sessionId: decodeJwt(alice.token).sid as string,
      exp: Math.floor(Date.now() / 1000) - 60,
    });
    expect((await session(bearer(expired))).statusCode).toBe(401);
  });

  it("refuses a token whose session row has expired", async () => {
    const alice = await signIn(t.app, "alice6@example.com");
    await t.database.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1", [
      decodeJwt(alice.token).sid,
    ]);
    expect((await session(bearer(alice.token))).statusCode).toBe(401);
  });

  it("accepts a personal API token as a bearer token", async () => {
    const alice = await signIn(t.app, "alice7@example.com");
    const apiToken = `bt_${randomSecret(32)}`;
    await t.database.query(
      "INSERT INTO api_tokens (user_id, token_hash, token_enc) VALUES ($1, $2, 'sealed')",
      [alice.id, hashSecret(apiToken)],
    );
    const response = await session(bearer(apiToken));
    expect(response.statusCode).toBe(200);
    expect(response.json().data.id).toBe(alice.id);
  });
});

describe("POST /auth/logout", () => {
  it("revokes the session the token names, and only that one", async () => {
    const phone = await signIn(t.app, "carol@example.com");
    const laptop = await signIn(t.app, "carol@example.com");
    const response = await logout(bearer(phone.token));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect((await session(bearer(phone.token))).statusCode).toBe(401);
    expect((await logout(bearer(phone.token))).statusCode).toBe(401);
    expect((await session(bearer(laptop.token))).statusCode).toBe(200);
  });

  it("accepts the SPA's bodiless JSON POST", async () => {
    const dave = await signIn(t.app, "dave@example.com");
    const response = await t.app.inject({
      method: "POST",
      url: "/auth/logout",
      headers: { ...bearer(dave.token), "content-type": "application/json" },
    });
    expect(response.statusCode).toBe(200);
  });

  it("answers 401 without a token", async () => {
    expect((await logout()).statusCode).toBe(401);
  });
});
