import { hashSecret, randomSecret } from "@bytetoll/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, latestLinkToken, requestLink, signIn, verify } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

interface Anonymous {
  id: string;
  username: string;
  password: string;
}

async function anonymousCredential(): Promise<Anonymous> {
  const username = `anon${randomSecret(6).replace(/[^A-Za-z0-9]/g, "x")}`;
  const password = randomSecret(18);
  const [row] = await t.database.query<{ id: string }>(
    "INSERT INTO proxy_credentials (username, password_hash, password_enc) VALUES ($1, $2, 'sealed') RETURNING id",
    [username, hashSecret(password)],
  );
  return { id: row!.id, username, password };
}

const ownerOf = async (id: string) =>
  (
    await t.database.query<{ user_id: string | null }>(
      "SELECT user_id FROM proxy_credentials WHERE id = $1",
      [id],
    )
  )[0]!.user_id;

const prefill = (credential: Anonymous) => ({
  username: credential.username,
  password: credential.password,
});

/** Follows the link as the browser that asked for it does: presenting the prefilled set again. */
async function verifyPresenting(email: string, presented: Record<string, string>) {
  const accessToken = await latestLinkToken(t.app, email);
  return t.app.inject({
    method: "POST",
    url: "/auth/magic/verify",
    payload: { access_token: accessToken, ...presented },
  });
}

describe("signing up with prefilled anonymous credentials", () => {
  it("attaches them once the link is followed by the browser that presents them, not before", async () => {
    const credential = await anonymousCredential();
    await requestLink(t.app, "claimer@example.com", prefill(credential));
    expect(await ownerOf(credential.id)).toBeNull();
    const response = await verifyPresenting("claimer@example.com", prefill(credential));
    expect(response.statusCode).toBe(200);
    expect(await ownerOf(credential.id)).toBe(response.json().data.id);
  });

  it("never attaches an attacker's set to the account of the e-mail the attacker named", async () => {
    const unique = await t.app.inject({
      method: "GET",
      url: "/credentials/unique",
      remoteAddress: "10.9.0.1",
    });
    const attacker = unique.json().data as { username: string; password: string };
    const sent = await requestLink(t.app, "victim@example.com", attacker);
    expect(sent.statusCode).toBe(200);

    // The victim follows the e-mailed link in their own browser, which never saw the set.
    const victim = await verify(t.app, await latestLinkToken(t.app, "victim@example.com"));
    expect(victim.statusCode).toBe(200);
    const [row] = await t.database.query<{ user_id: string | null }>(
      "SELECT user_id FROM proxy_credentials WHERE username = $1",
      [attacker.username],
    );
    expect(row?.user_id).toBeNull();
    const shown = await t.app.inject({
      method: "GET",
      url: "/credentials/latest",
      headers: bearer(victim.json().data.token),
    });
    expect(shown.json().data.username).not.toBe(attacker.username);
  });

  it("attaches nothing when the link is followed with another set than the one requested", async () => {
    const requested = await anonymousCredential();
    const other = await anonymousCredential();
    await requestLink(t.app, "swapper@example.com", prefill(requested));
    await verifyPresenting("swapper@example.com", prefill(other));
    expect(await ownerOf(requested.id)).toBeNull();
    expect(await ownerOf(other.id)).toBeNull();
  });

  it("attaches nothing when the presented password is wrong", async () => {
    const credential = await anonymousCredential();
    await requestLink(t.app, "presenter@example.com", prefill(credential));
    await verifyPresenting("presenter@example.com", { ...prefill(credential), password: "wrong-password" });
    expect(await ownerOf(credential.id)).toBeNull();
  });

  it("ignores them when the password does not match at request time", async () => {
    const credential = await anonymousCredential();
    await requestLink(t.app, "guesser@example.com", { ...prefill(credential), password: "wrong-password" });
    await verifyPresenting("guesser@example.com", prefill(credential));
    expect(await ownerOf(credential.id)).toBeNull();
  });

  it("leaves them alone when the account already has credentials", async () => {
    const existing = await signIn(t.app, "veteran@example.com");
    const own = await anonymousCredential();
    await t.database.query("UPDATE proxy_credentials SET user_id = $1 WHERE id = $2", [existing.id, own.id]);
    const extra = await anonymousCredential();
    await requestLink(t.app, "veteran@example.com", prefill(extra));
    const response = await verifyPresenting("veteran@example.com", prefill(extra));
    expect(response.statusCode).toBe(200);
    expect(await ownerOf(extra.id)).toBeNull();
  });

  it("never attaches a set someone else already claimed", async () => {
    const credential = await anonymousCredential();
    await requestLink(t.app, "first@example.com", prefill(credential));
    await requestLink(t.app, "second@example.com", prefill(credential));
    const first = await verifyPresenting("first@example.com", prefill(credential));
    await verifyPresenting("second@example.com", prefill(credential));
    expect(await ownerOf(credential.id)).toBe(first.json().data.id);
  });

  it("answers a malformed presented set with a 400", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/auth/magic/verify",
      payload: { access_token: "A".repeat(43), username: "with space", password: "x" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false });
    expect(response.json().message).toContain("username");
  });
});
