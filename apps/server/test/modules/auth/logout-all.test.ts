import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const session = (token: string) =>
  t.app.inject({ method: "GET", url: "/auth/session", headers: bearer(token) });
const logoutAll = (headers: Record<string, string>) =>
  t.app.inject({ method: "POST", url: "/auth/logout-all", headers });
const apiToken = async (token: string): Promise<string> =>
  (await t.app.inject({ method: "GET", url: "/account/api-token", headers: bearer(token) })).json().data
    .token;

describe("POST /auth/logout-all", () => {
  it("revokes every session of the caller, keeps the API token and other accounts", async () => {
    const laptop = await signIn(t.app, "everywhere@example.com");
    const phone = await signIn(t.app, "everywhere@example.com");
    const other = await signIn(t.app, "someone-else@example.com");
    const token = await apiToken(laptop.token);

    const response = await logoutAll(bearer(laptop.token));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });

    for (const old of [laptop.token, phone.token]) {
      const refused = await session(old);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ success: false, message: "Unauthorized" });
    }
    expect((await session(other.token)).statusCode).toBe(200);
    expect((await session(token)).json().data.email).toBe("everywhere@example.com");
  });

  it("lets the account sign in again afterwards", async () => {
    const before = await signIn(t.app, "again@example.com");
    await logoutAll(bearer(before.token));
    const after = await signIn(t.app, "again@example.com");
    expect((await session(after.token)).statusCode).toBe(200);
    expect((await session(before.token)).statusCode).toBe(401);
  });

  it("called with the API token, ends the sessions but not the token", async () => {
    const user = await signIn(t.app, "from-script@example.com");
    const token = await apiToken(user.token);
    expect((await logoutAll(bearer(token))).statusCode).toBe(200);
    expect((await session(user.token)).statusCode).toBe(401);
    expect((await session(token)).statusCode).toBe(200);
  });

  it("answers 401 without a bearer token, and with an already revoked one", async () => {
    expect((await logoutAll({})).statusCode).toBe(401);
    const user = await signIn(t.app, "twice@example.com");
    expect((await logoutAll(bearer(user.token))).statusCode).toBe(200);
    expect((await logoutAll(bearer(user.token))).statusCode).toBe(401);
  });
});
