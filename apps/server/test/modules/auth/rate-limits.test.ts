import { LOGIN_RATE_LIMITED } from "@bytetoll/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestLinkToken, verify } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** Each scenario comes from its own address so the per-IP counters do not mix. */
const login = (email: string, remoteAddress: string) =>
  t.app.inject({ method: "POST", url: "/auth/login", payload: { email }, remoteAddress });

const tokensFor = async (email: string) =>
  Number(
    (
      await t.database.query<{ n: string }>("SELECT count(*) AS n FROM login_tokens WHERE email = $1", [
        email,
      ])
    )[0]!.n,
  );

describe("sign-in rate limits", () => {
  it("sends at most 5 links per e-mail in 15 minutes, whoever asks", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await login("popular@example.com", `10.1.0.${i + 1}`)).statusCode).toBe(200);
    }
    const refused = await login("Popular@Example.com", "10.1.0.99");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ success: false, message: LOGIN_RATE_LIMITED });
    expect(await tokensFor("popular@example.com")).toBe(5);
    expect((await login("someone-else@example.com", "10.1.0.99")).statusCode).toBe(200);
  });

  it("holds the per-e-mail limit under concurrent requests", async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => login("burst@example.com", `10.3.0.${i + 1}`)),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    expect(await tokensFor("burst@example.com")).toBe(5);
  });

  it("limits link requests per IP address", async () => {
    for (let i = 0; i < 20; i++) {
      expect((await login(`visitor${i}@example.com`, "10.2.0.1")).statusCode).toBe(200);
    }
    const refused = await login("visitor-extra@example.com", "10.2.0.1");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ success: false, message: LOGIN_RATE_LIMITED });
    expect(await tokensFor("visitor-extra@example.com")).toBe(0);
    expect((await login("visitor-extra@example.com", "10.2.0.2")).statusCode).toBe(200);
  });

  it("limits link verification attempts per IP address", async () => {
    const attempt = () =>
      t.app.inject({
        method: "POST",
        url: "/auth/magic/verify",
        payload: { access_token: "B".repeat(43) },
        remoteAddress: "10.4.0.1",
      });
    for (let i = 0; i < 30; i++) expect((await attempt()).statusCode).toBe(401);
    const refused = await attempt();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().success).toBe(false);
  });
});

describe("the per-e-mail limit counts one mailbox however it is written", () => {
  it("refuses a trailing dot, upper case and plus tags once the address had its 5 links", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await login("victim@x.com", `10.5.0.${i + 1}`)).statusCode).toBe(200);
    }
    for (const [i, variant] of [
      "victim@x.com.",
      "VICTIM+1@x.com",
      "victim+2@X.COM",
      " victim+a.b@x.com. ",
    ].entries()) {
      const refused = await login(variant, `10.5.1.${i + 1}`);
      expect(refused.statusCode, variant).toBe(429);
      expect(refused.json()).toEqual({ success: false, message: LOGIN_RATE_LIMITED });
    }
    expect((await login("victim2@x.com", "10.5.2.1")).statusCode).toBe(200);
  });

  it("keys the account by the address as typed, lower-cased and without the trailing dot", async () => {
    expect((await login("Dotted+Tag@Example.COM.", "10.6.0.1")).statusCode).toBe(200);
    expect(await tokensFor("dotted+tag@example.com")).toBe(1);
    const verified = await verify(t.app, await latestLinkToken(t.app, "dotted+tag@example.com"));
    expect(verified.json().data.email).toBe("dotted+tag@example.com");
  });
});
