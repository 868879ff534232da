import { OPERATOR_FACTOR_REQUIRED } from "@bytetoll/contracts";
import { type Database, hashesEqual, hashSecret } from "@bytetoll/db";
import type { FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import { AppError, accountDisabled, unauthorized } from "../../errors.ts";
import type { App, AuthUser } from "../../types.ts";
import { hasSecondFactor } from "../two-factor/index.ts";
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

/** What the session answer says about operators and factors, so the dashboard knows whether to
 * link the console, or to ask an operator to add a second factor first. */
export async function operatorFlags(
  config: Pick<Config, "ADMIN_EMAILS" | "ADMIN_2FA">,
  database: Database,
  person: { id: string; email: string },
  ownAccount: boolean,
) {
  // Only on the person's own account: a session switched onto another account is no operator's.
  const isOperator = ownAccount && isOperatorEmail(config, person.email);
  const secondFactor = await hasSecondFactor(database, person.id);
  return {
    is_operator: isOperator,
    second_factor: secondFactor,
    operator_factor_missing: isOperator && config.ADMIN_2FA === "required" && !secondFactor,
  };
}

/**
 * Who may call the admin API (docs/product.md#operators): the bearer ADMIN_TOKEN (scripts), or
 * the sign-in session or API token of an account whose e-mail is in ADMIN_EMAILS — found by the
 * app's one bearer check, so its caches and revocation apply. No credentials → 401; a customer
 * (or a disabled operator) → 403.
 */
export function createOperatorCheck(app: App) {
  const expected = app.config.ADMIN_TOKEN ? hashSecret(app.config.ADMIN_TOKEN) : null;

  /** With ADMIN_2FA=required an operator answers with a sign-in session of an account that has a
   * second factor: a personal API token skips the factor, so scripts use ADMIN_TOKEN instead. */
  async function requireOperatorFactor(user: AuthUser): Promise<void> {
    if (!user.sessionId)
      throw new AppError(
        403,
        "With ADMIN_2FA=required the admin API takes a signed-in session or ADMIN_TOKEN.",
        "second_factor_required",
      );
    if (!(await hasSecondFactor(app.database, user.id)))
      throw new AppError(403, OPERATOR_FACTOR_REQUIRED, "second_factor_required");
  }

  return async function operatorOf(request: FastifyRequest): Promise<string> {
    const given = BEARER.exec(request.headers.authorization ?? "")?.[1];
    if (!given) throw unauthorized();
    // Comparing fixed-length hashes keeps the comparison constant-time whatever was sent.
    if (expected && hashesEqual(hashSecret(given), expected)) return ADMIN_TOKEN_ACTOR;
    const user = await app.identify(request);
    if (!user) throw unauthorized();
    if (user.disabled) throw accountDisabled(app.config.SUPPORT_CONTACT);
    // Only the operator's own full access: not a session switched onto another account, not a
    // scoped API token.
    const ownFullAccess = user.actorId === user.id && user.scopes === null;
    if (!ownFullAccess || !isOperatorEmail(app.config, user.email)) {
      throw new AppError(403, NOT_AN_OPERATOR, "forbidden");
    }
    if (app.config.ADMIN_2FA === "required") await requireOperatorFactor(user);
    return user.email;
  };
}
