import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { inviteAndSignIn, memberToken, personEmail, switchTo } from "./helpers.ts";

/**
 * Team members through the HTTP API, on two instances over one database (PGlite here,
 * PostgreSQL with DATABASE_URL): what a removal or a new role does reaches the other instance.
 */
let one: TestApp;
let two: TestApp;
const operator = personEmail("operator");

beforeAll(async () => {
  one = await createTestApp({ ADMIN_EMAILS: operator });
  two = await createTestApp({ ADMIN_EMAILS: operator }, { database: one.database });
}, 120_000);
afterAll(async () => {
  await two?.close();
  await one?.close();
});

const get = (t: TestApp, url: string, token: string) =>
  t.app.inject({ method: "GET", url, headers: bearer(token) });

describe("inviting a member", () => {
  it("e-mails them; after the usual sign-in they list and open the account with their role", async () => {
    const owner = await signIn(one.app, personEmail("owner"));
    const email = personEmail("viewer");
    const person = await inviteAndSignIn(one.app, owner.token, email, "viewer");
    const mail = await one.app.inject({
      method: "GET",
      url: `/dev/outbox/messages?to=${encodeURIComponent(email)}`,
    });
    expect(mail.json().data.map((m: { subject: string }) => m.subject)).toContain(
      "You were added to a ByteToll account",
    );

    const accounts = (await get(one, "/accounts", person.token)).json().data;
    expect(
      accounts.map((a: { id: string; role: string; current: boolean }) => [a.id, a.role, a.current]),
    ).toEqual([
      [person.id, "owner", true],
      [owner.id, "viewer", false],
    ]);

    const token = await switchTo(one.app, person.token, owner.id);
    const switched = (await get(two, "/accounts", token)).json().data;
    expect(switched.find((a: { current: boolean }) => a.current)).toMatchObject({
      id: owner.id,
      role: "viewer",
    });
    const members = (await get(one, "/team/members", owner.token)).json().data;
    expect(members.map((m: { email: string; role: string }) => m.role)).toEqual(["owner", "viewer"]);

    // A viewer reads the balance but cannot buy, and cannot manage the team.
    expect((await get(two, "/account/status", token)).statusCode).toBe(200);
    const buy = await two.app.inject({
      method: "POST",
      url: "/transactions",
      headers: bearer(token),
      payload: { amount: 10 },
    });
    expect(buy.statusCode).toBe(403);
    expect(buy.json()).toMatchObject({ success: false, code: "insufficient_role" });
    expect((await get(two, "/team/members", token)).json().code).toBe("insufficient_role");
  }, 120_000);

  it("refuses bad invitations and changes nothing", async () => {
    const owner = await signIn(one.app, personEmail("owner"));
    const invite = (payload: unknown) =>
      one.app.inject({
        method: "POST",
        url: "/team/members",
        headers: bearer(owner.token),
        payload: payload as object,
      });
    expect((await invite({ email: personEmail("x"), role: "owner" })).statusCode).toBe(400);
    expect((await invite({ email: "not an address", role: "viewer" })).statusCode).toBe(400);
    const self = await one.app.inject({ method: "GET", url: "/auth/session", headers: bearer(owner.token) });
    expect((await invite({ email: self.json().data.email, role: "admin" })).statusCode).toBe(400);
    const email = personEmail("twice");
    expect((await invite({ email, role: "viewer" })).statusCode).toBe(200);
    expect((await invite({ email, role: "admin" })).json()).toMatchObject({ success: false });
    const members = (await get(one, "/team/members", owner.token)).json().data;
    expect(members.map((m: { role: string }) => m.role)).toEqual(["owner", "viewer"]);
  }, 120_000);

  it("does not let anyone switch onto an account they are not a member of", async () => {
    const stranger = await signIn(one.app, personEmail("stranger"));
    const victim = await signIn(one.app, personEmail("victim"));
    const response = await one.app.inject({
      method: "POST",
      url: "/auth/switch",
      headers: bearer(stranger.token),
      payload: { account_id: victim.id },
    });
    expect(response.statusCode).toBe(403);
    expect((await get(one, "/account/status", stranger.token)).statusCode).toBe(200);
  }, 120_000);
});

describe("a member's access follows the owner's changes on every instance", () => {
  it("a new role applies to the token already in use", async () => {
    const owner = await signIn(one.app, personEmail("owner"));
    const { person, token } = await memberToken(one.app, owner, "viewer");
    expect((await get(two, "/settings/auto-topup", token)).json().code).toBe("insufficient_role");
    const changed = await one.app.inject({
      method: "PATCH",
      url: `/team/members/${person.id}`,
      headers: bearer(owner.token),
      payload: { role: "billing" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await vi.waitFor(
      async () => expect((await get(two, "/settings/auto-topup", token)).statusCode).toBe(200),
      {
        timeout: 5_000,
        interval: 10,
      },
    );
  }, 120_000);

  it("removing a member revokes their token for the account within a second, and they keep their own", async () => {
    const owner = await signIn(one.app, personEmail("owner"));
    const { person, token } = await memberToken(one.app, owner, "developer");
    expect((await get(two, "/account/status", token)).statusCode).toBe(200);
    const started = Date.now();
    const removed = await one.app.inject({
      method: "DELETE",
      url: `/team/members/${person.id}`,
      headers: bearer(owner.token),
    });
    expect(removed.statusCode).toBe(200);
    await vi.waitFor(async () => expect((await get(two, "/account/status", token)).statusCode).toBe(401), {
      timeout: 5_000,
      interval: 10,
    });
    const tookMs = Date.now() - started;
    expect(tookMs).toBeLessThan(1_000);
    expect((await get(two, "/account/status", person.token)).statusCode).toBe(200);
    expect((await get(one, "/accounts", person.token)).json().data).toHaveLength(1);
  }, 120_000);

  it("an operator disabling the owner stops the members on the owner's account within a second, not their own", async () => {
    const owner = await signIn(one.app, personEmail("owner"));
    const { person, token } = await memberToken(one.app, owner, "developer");
    // Both instances have the member's session on the account cached.
    for (const t of [one, two]) expect((await get(t, "/account/status", token)).statusCode).toBe(200);
    const started = Date.now();
    await one.database.query("UPDATE users SET disabled_at = now() WHERE id = $1", [owner.id]);
    await vi.waitFor(
      async () => {
        for (const t of [one, two]) expect((await get(t, "/account/status", token)).statusCode).toBe(403);
      },
      { timeout: 5_000, interval: 10 },
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect((await get(two, "/account/status", person.token)).statusCode).toBe(200);
  }, 120_000);
});

describe("the activity list", () => {
  it("shows the owner what members changed: who, what, when", async () => {
    const owner = await signIn(one.app, personEmail("owner"));
    const { person, token } = await memberToken(one.app, owner, "developer");
    const rotated = await two.app.inject({
      method: "POST",
      url: "/credentials/regenerate",
      headers: bearer(token),
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const memberEmail = (await get(one, "/auth/session", person.token)).json().data.email;
    await vi.waitFor(async () => {
      const activity = (await get(one, "/team/activity", owner.token)).json().data;
      expect(activity[0]).toMatchObject({ actor_email: memberEmail, action: "POST /credentials/regenerate" });
      expect(Date.parse(activity[0].created_at)).toBeGreaterThan(Date.now() - 60_000);
    });
  }, 120_000);
});

describe("operators", () => {
  it("a member of an operator's account is not an operator", async () => {
    const owner = await signIn(one.app, operator);
    expect((await get(one, "/admin/me", owner.token)).statusCode).toBe(200);
    const { token } = await memberToken(one.app, owner, "admin");
    expect((await get(one, "/admin/me", token)).statusCode).toBe(403);
  }, 120_000);
});
