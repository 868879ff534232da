import {
  MEMBER_ROLES,
  PERMISSIONS,
  type Permission,
  type RouteAccess,
  roleAllows,
  SCOPES,
  type Scope,
  scopesAllow,
} from "@bytetoll/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteRule } from "../../../src/plugins/route-access.ts";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { memberToken, personEmail, scopedToken } from "./helpers.ts";

/**
 * Every route of the app, as registered, against every role and every scope: a route without a
 * rule fails here, and each rule is enforced by the server the way a caller meets it.
 */
let t: TestApp;
const callers: Array<{ who: string; token: string; allows: (permission: Permission) => boolean }> = [];

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: "1000000", ADMIN_EMAILS: "operator@example.com" });
  const owner = await signIn(t.app, personEmail("owner"));
  for (const role of MEMBER_ROLES) {
    const { token } = await memberToken(t.app, owner, role);
    callers.push({ who: `role ${role}`, token, allows: (permission) => roleAllows(role, permission) });
  }
  for (const scope of SCOPES) {
    const { token } = await scopedToken(t.app, owner.token, [scope]);
    callers.push({
      who: `scope ${scope}`,
      token,
      allows: (permission) => scopesAllow([scope] as Scope[], permission),
    });
  }
}, 120_000);
afterAll(() => t?.close());

const isPermission = (access: RouteAccess | undefined): access is Permission =>
  access !== undefined && access in PERMISSIONS;
const pathOf = (url: string) =>
  url.replace(/:[A-Za-z]+/g, "00000000-0000-4000-8000-000000000000").replace("*", "x");

describe("the route table", () => {
  it("gives every route a rule", () => {
    const rules: RouteRule[] = t.app.routeRules;
    expect(rules.length).toBeGreaterThan(80);
    expect(
      rules.filter((rule) => rule.access === undefined).map((rule) => `${rule.method} ${rule.url}`),
    ).toEqual([]);
  });

  it("refuses each role and scope what its rule does not allow, with the code that says why", async () => {
    const refusedWrongly: string[] = [];
    for (const rule of t.app.routeRules.filter((r) => isPermission(r.access) && r.method !== "HEAD")) {
      const permission = rule.access as Permission;
      for (const caller of callers) {
        const allowed = caller.allows(permission);
        // Writes the caller may do are not made here: their effects are each module's tests.
        if (allowed && rule.method !== "GET") continue;
        const response = await t.app.inject({
          method: rule.method as "GET",
          url: pathOf(rule.url),
          headers: bearer(caller.token),
        });
        const code = response.statusCode === 403 ? response.json().code : null;
        const refused = code === "insufficient_role" || code === "insufficient_scope";
        if (refused === allowed)
          refusedWrongly.push(`${caller.who} ${rule.method} ${rule.url}: ${response.statusCode} ${code}`);
        if (refused && caller.who.startsWith("scope") && PERMISSIONS[permission].scope) {
          expect(response.json().message).toContain(PERMISSIONS[permission].scope);
        }
      }
    }
    expect(refusedWrongly).toEqual([]);
  }, 300_000);
});
