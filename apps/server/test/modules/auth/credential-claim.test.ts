import { hashSecret, randomSecret } from "@bytetoll/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestLinkToken, requestLink, signIn, verify } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function anonymousCredential() {
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

describe("signing up with prefilled anonymous credentials", () => {
  it("attaches them to the account once the link is followed, not before", async () => {
    const credential = await anonymousCredential();
    await requestLink(t.app, "claimer@example.com", {
      username: credential.username,
      password: credential.password,
    });
    expect(await ownerOf(credential.id)).toBeNull();
    const response = await verify(t.app, await latestLinkToken(t.app, "claimer@example.com"));
    expect(await ownerOf(credential.id)).toBe(response.json().data.id);
  });

  it("ignores them when the password does not match", async () => {
    const credential = await anonymousCredential();
    await requestLink(t.app, "guesser@example.com", {
      username: credential.username,
      password: "wrong-password",
    });
    await verify(t.app, await latestLinkToken(t.app, "guesser@example.com"));
    expect(await ownerOf(credential.id)).toBeNull();
  });

  it("leaves them alone when the account already has credentials", async () => {
    const existing = await signIn(t.app, "veteran@example.com");
    const own = await anonymousCredential();
    await t.database.query("UPDATE proxy_credentials SET user_id = $1 WHERE id = $2", [existing.id, own.id]);
    const extra = await anonymousCredential();
    await requestLink(t.app, "veteran@example.com", { username: extra.username, password: extra.password });
    const response = await verify(t.app, await latestLinkToken(t.app, "veteran@example.com"));
    expect(response.statusCode).toBe(200);
    expect(await ownerOf(extra.id)).toBeNull();
  });

  it("never attaches a set someone else already claimed", async () => {
    const credential = await anonymousCredential();
    await requestLink(t.app, "first@example.com", {
      username: credential.username,
      password: credential.password,
    });
    await requestLink(t.app, "second@example.com", {
      username: credential.username,
      password: credential.password,
    });
    const first = await verify(t.app, await latestLinkToken(t.app, "first@example.com"));
    await verify(t.app, await latestLinkToken(t.app, "second@example.com"));
    expect(await ownerOf(credential.id)).toBe(first.json().data.id);
  });
});
