import { SCOPED_TOKENS_MAX } from "@bytetoll/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { memberToken, personEmail, scopedToken } from "../team/helpers.ts";

/** Scoped API tokens through the HTTP API: shown once, limited to their scopes, refused once
 * deleted or expired, at most SCOPED_TOKENS_MAX per account. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(() => t?.close());

const call = (method: "GET" | "POST" | "DELETE", url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

describe("scoped API tokens", () => {
  it("do what their scopes allow, refuse the rest naming the scope, and show when they were used", async () => {
    const owner = await signIn(t.app, personEmail("owner"));
    const { id, token } = await scopedToken(t.app, owner.token, ["usage:read"], "ci");
    expect(token).toMatch(/^bt_/);
    expect((await call("GET", "/proxies/usage?group_by=day&days=7", token)).statusCode).toBe(200);
    const refused = await call("POST", "/credentials/regenerate", token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, code: "insufficient_scope" });
    expect(refused.json().message).toContain("credentials:write");
    expect((await call("GET", "/api-tokens", token)).json().code).toBe("insufficient_scope");

    await vi.waitFor(async () => {
      const listed = (await call("GET", "/api-tokens", owner.token)).json().data;
      expect(listed).toEqual([
        expect.objectContaining({ id, name: "ci", scopes: ["usage:read"], expires_at: null }),
      ]);
      expect(listed[0].token).toBeUndefined();
      expect(listed[0].last_used_at).not.toBeNull();
    });
  }, 120_000);

  it("is refused at once when deleted, and the account's original token keeps every scope", async () => {
    const owner = await signIn(t.app, personEmail("owner"));
    const { id, token } = await scopedToken(t.app, owner.token, ["account:read"]);
    expect((await call("GET", "/account/status", token)).statusCode).toBe(200);
    expect((await call("DELETE", `/api-tokens/${id}`, owner.token)).statusCode).toBe(200);
    expect((await call("GET", "/account/status", token)).statusCode).toBe(401);
    expect((await call("DELETE", `/api-tokens/${id}`, owner.token)).statusCode).toBe(404);

    const original = (await call("GET", "/account/api-token", owner.token)).json().data.token as string;
    expect((await call("POST", "/credentials/regenerate", original)).statusCode).toBe(200);
    expect((await call("GET", "/webhooks", original)).statusCode).toBe(200);
  }, 120_000);

  it("stops working when it expires", async () => {
    const owner = await signIn(t.app, personEmail("owner"));
    const expiresAt = new Date(Date.now() + 2_000).toISOString();
    const created = await call("POST", "/api-tokens", owner.token, {
      name: "short",
      scopes: ["usage:read"],
      expires_at: expiresAt,
    });
    expect(created.statusCode, created.body).toBe(200);
    const { token } = created.json().data;
    expect((await call("GET", "/proxies/usage?group_by=day&days=7", token)).statusCode).toBe(200);
    await vi.waitFor(
      async () =>
        expect((await call("GET", "/proxies/usage?group_by=day&days=7", token)).statusCode).toBe(401),
      {
        timeout: 10_000,
        interval: 100,
      },
    );
  }, 120_000);

  it("refuses bad requests, another account's token, the 21st token and members who may not manage them", async () => {
    const owner = await signIn(t.app, personEmail("owner"));
    const other = await signIn(t.app, personEmail("other"));
    const bad = [
      { name: "x", scopes: ["admin:everything"] },
      { name: "x", scopes: [] },
      { name: "", scopes: ["usage:read"] },
      { name: "x", scopes: ["usage:read", "usage:read"] },
      { name: "x", scopes: ["usage:read"], expires_at: "2020-01-01T00:00:00Z" },
    ];
    for (const payload of bad)
      expect((await call("POST", "/api-tokens", owner.token, payload)).statusCode).toBe(400);
    const { id } = await scopedToken(t.app, other.token, ["usage:read"]);
    expect((await call("DELETE", `/api-tokens/${id}`, owner.token)).statusCode).toBe(404);

    for (let i = 0; i < SCOPED_TOKENS_MAX; i++)
      await scopedToken(t.app, owner.token, ["usage:read"], `t${i}`);
    const tooMany = await call("POST", "/api-tokens", owner.token, {
      name: "one more",
      scopes: ["usage:read"],
    });
    expect(tooMany.statusCode).toBe(409);
    expect((await call("GET", "/api-tokens", owner.token)).json().data).toHaveLength(SCOPED_TOKENS_MAX);

    const developer = await memberToken(t.app, owner, "developer");
    expect((await call("GET", "/api-tokens", developer.token)).json().code).toBe("insufficient_role");
    expect((await call("GET", "/account/api-token", developer.token)).json().code).toBe("insufficient_role");
  }, 120_000);
});
