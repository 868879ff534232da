import type { MemberRole, Scope } from "@bytetoll/contracts";
import { expect } from "vitest";
import type { App } from "../../../src/types.ts";
import { bearer, signIn } from "../../helpers/sign-in.ts";

let people = 0;
export const personEmail = (what: string) => `${what}-${process.pid}-${++people}@example.com`;

/** The owner invites `email` with `role`; the person signs in with the usual link. */
export async function inviteAndSignIn(app: App, ownerToken: string, email: string, role: MemberRole) {
  const invited = await app.inject({
    method: "POST",
    url: "/team/members",
    headers: bearer(ownerToken),
    payload: { email, role },
  });
  expect(invited.statusCode, invited.body).toBe(200);
  return signIn(app, email);
}

/** POST /auth/switch as the person: their token for `accountId`. */
export async function switchTo(app: App, personToken: string, accountId: string): Promise<string> {
  const switched = await app.inject({
    method: "POST",
    url: "/auth/switch",
    headers: bearer(personToken),
    payload: { account_id: accountId },
  });
  expect(switched.statusCode, switched.body).toBe(200);
  return switched.json().data.token;
}

/** A member of the owner's account with `role`: their token switched onto it. */
export async function memberToken(app: App, owner: { token: string; id: string }, role: MemberRole) {
  const person = await inviteAndSignIn(app, owner.token, personEmail(role), role);
  return { person, token: await switchTo(app, person.token, owner.id) };
}

export async function scopedToken(app: App, ownerToken: string, scopes: Scope[], name = scopes.join("+")) {
  const created = await app.inject({
    method: "POST",
    url: "/api-tokens",
    headers: bearer(ownerToken),
    payload: { name, scopes },
  });
  expect(created.statusCode, created.body).toBe(200);
  return created.json().data as { id: string; token: string };
}
