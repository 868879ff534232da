import { hashSecret } from "@bytetoll/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const readToken = (auth: string) =>
  t.app.inject({ method: "GET", url: "/account/api-token", headers: bearer(auth) });
const regenerate = (auth: string) =>
  t.app.inject({ method: "POST", url: "/account/api-token/regenerate", headers: bearer(auth) });
const session = (auth: string) =>
  t.app.inject({ method: "GET", url: "/auth/session", headers: bearer(auth) });

describe("the personal API token", () => {
  it("is created on first read, shown again unchanged, and stored only hashed and sealed", async () => {
    const { token: jwt, id } = await signIn(t.app, "integrator@example.com");
    const first = await readToken(jwt);
    expect(first.statusCode).toBe(200);
    const apiToken: string = first.json().data.token;
    expect(apiToken).toMatch(/^bt_[A-Za-z0-9_-]{40,}$/);
    expect((await readToken(jwt)).json().data.token).toBe(apiToken);

    const [row] = await t.database.query<{ token_hash: string; token_enc: string }>(
      "SELECT token_hash, token_enc FROM api_tokens WHERE user_id = $1",
      [id],
    );
    expect(row?.token_hash).toBe(hashSecret(apiToken));
    expect(row?.token_enc).not.toContain(apiToken.slice(3));
  });

  it("works as a bearer token on authenticated calls, as its own account", async () => {
    const alice = await signIn(t.app, "alice-api@example.com");
    const bob = await signIn(t.app, "bob-api@example.com");
    const aliceApi = (await readToken(alice.token)).json().data.token;
    const me = await session(aliceApi);
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ id: alice.id, email: "alice-api@example.com" });

    const viaApi = await t.app.inject({
      method: "GET",
      url: "/credentials/latest",
      headers: bearer(aliceApi),
    });
    const viaJwt = await t.app.inject({
      method: "GET",
      url: "/credentials/latest",
      headers: bearer(alice.token),
    });
    expect(viaApi.json().data).toEqual(viaJwt.json().data);
    const bobs = await t.app.inject({
      method: "GET",
      url: "/credentials/latest",
      headers: bearer(bob.token),
    });
    expect(bobs.json().data.username).not.toBe(viaApi.json().data.username);
  });

  it("stops working the moment it is regenerated, and the new one works", async () => {
    const { token: jwt } = await signIn(t.app, "rotating-api@example.com");
    const old = (await readToken(jwt)).json().data.token;
    const response = await regenerate(old);
    expect(response.statusCode).toBe(200);
    const fresh: string = response.json().data.token;
    expect(fresh).not.toBe(old);
    expect((await session(old)).statusCode).toBe(401);
    expect((await session(fresh)).statusCode).toBe(200);
    expect((await readToken(jwt)).json().data.token).toBe(fresh);
  });

  it("refuses bearers that are neither a session nor a known API token", async () => {
    for (const bogus of [
      "bt_thisTokenWasNeverIssuedToAnyone123",
      "plainRandomStringThatIsLongEnough",
      "a.b.c-not-a-jwt-xx",
    ]) {
      const response = await session(bogus);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ success: false, message: "Unauthorized" });
    }
    expect((await t.app.inject({ method: "GET", url: "/account/api-token" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url: "/account/api-token/regenerate" })).statusCode).toBe(
      401,
    );
  });
});
