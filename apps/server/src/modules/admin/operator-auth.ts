import { hashesEqual, hashSecret } from "@bytetoll/db";
import type { FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import { AppError, accountDisabled, unauthorized } from "../../errors.ts";
import type { App } from "../../types.ts";
import { ADMIN_TOKEN_ACTOR } from "./audit.ts";

const BEARER = /^Bearer\s+(\S{1,2048})$/i;

export const NOT_AN_OPERATOR = "This is for the operators of this ByteToll only.";

declare module "fastify" {
  interface FastifyRequest {
    /** Who is calling an admin route, as the audit log names them: an operator's e-mail, or
     * "admin-token". Set by the admin routes' bearer check. */
    adminActor: string;
  }
}

/** Whether the admin API exists: ADMIN_TOKEN or ADMIN_EMAILS is set. */
export const adminApiEnabled = (app: App) =>
  Boolean(app.config.ADMIN_TOKEN) || app.config.ADMIN_EMAILS.length > 0;

/** Whether an account's e-mail names an operator (ADMIN_EMAILS holds them normalised, as accounts
 * are keyed). The session answer carries it so the dashboard never asks the admin API. */
export const isOperatorEmail = (config: Pick<Config, "ADMIN_EMAILS">, email: string) =>
  config.ADMIN_EMAILS.includes(email.toLowerCase());

/**
 * Who may call the admin API (docs/product.md#operators): the bearer ADMIN_TOKEN (scripts), or
 * the sign-in session or API token of an account whose e-mail is in ADMIN_EMAILS — found by the
 * app's one bearer check, so its caches and revocation apply. No credentials → 401; a customer
 * (or a disabled operator) → 403.
 */
export function createOperatorCheck(app: App) {
  const expected = app.config.ADMIN_TOKEN ? hashSecret(app.config.ADMIN_TOKEN) : null;

  return async function operatorOf(request: FastifyRequest): Promise<string> {
    const given = BEARER.exec(request.headers.authorization ?? "")?.[1];
    if (!given) throw unauthorized();
    // Comparing fixed-length hashes keeps the comparison constant-time whatever was sent.
    if (expected && hashesEqual(hashSecret(given), expected)) return ADMIN_TOKEN_ACTOR;
    const user = await app.identify(request);
    if (!user) throw unauthorized();
    if (user.disabled) throw accountDisabled(app.config.SUPPORT_CONTACT);
    if (!isOperatorEmail(app.config, user.email)) throw new AppError(403, NOT_AN_OPERATOR, "forbidden");
    return user.email;
  };
}
