import { PERMISSIONS, type Permission, type RouteAccess, roleAllows, scopesAllow } from "@bytetoll/contracts";
import type { FastifyInstance } from "fastify";
import { AppError } from "../errors.ts";
import type { AuthUser } from "../types.ts";
import { routeAccess } from "./route-access-table.ts";

/** A registered route and what it needs (undefined: no rule, so owner only). */
export interface RouteRule {
  method: string;
  url: string;
  access: RouteAccess | undefined;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Every route registered after the auth plugin, with its rule: what the route-table test walks. */
    routeRules: RouteRule[];
  }
}

/** Gives every route registered from now on its rule (its own `config.access`, else the table's)
 * and lists it in `app.routeRules`. */
export function installRouteAccess(app: FastifyInstance): void {
  const rules: RouteRule[] = [];
  app.decorate("routeRules", rules);
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const found = methods.map((method) => route.config?.access ?? routeAccess(method, route.url));
    for (const [i, method] of methods.entries()) rules.push({ method, url: route.url, access: found[i] });
    // One route serving several methods gets a rule only when they all have the same one.
    if (found[0] && found.every((access) => access === found[0])) {
      route.config = { ...route.config, access: found[0] };
    }
  });
}

/**
 * The one check of what a signed-in caller may do (docs/product.md#team-members): the route's
 * permission against the caller's role on the account, then against the token's scopes. A
 * route that names no permission is for the account's owner with a full token only.
 */
export function checkAccess(access: RouteAccess | undefined, user: AuthUser): void {
  if (access === "public" || access === "operator") return;
  if (access === undefined) {
    if (user.role === "owner" && user.scopes === null) return;
    throw new AppError(403, "Only the account's owner can do this.", "insufficient_role", {
      codeInBody: true,
    });
  }
  if (!roleAllows(user.role, access)) {
    throw new AppError(403, `Your role (${user.role}) does not allow this.`, "insufficient_role", {
      codeInBody: true,
    });
  }
  if (!scopesAllow(user.scopes, access)) throw insufficientScope(access);
}

function insufficientScope(permission: Permission): AppError {
  const scope = PERMISSIONS[permission].scope;
  const message = scope
    ? `This API token lacks the ${scope} scope.`
    : "API tokens cannot do this; sign in to the dashboard.";
  return new AppError(403, message, "insufficient_scope", { codeInBody: true });
}
