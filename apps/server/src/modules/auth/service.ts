import {
  LOGIN_LINK_INVALID,
  LOGIN_RATE_LIMITED,
  type LoginRequest,
  type SendLoginLinkRequest,
} from "@bytetoll/contracts";
import { applyLedgerEntry, type Database, hashesEqual, hashSecret, randomSecret } from "@bytetoll/db";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.ts";
import { AppError } from "../../errors.ts";
import { signAppToken } from "../../lib/app-token.ts";
import type { Mailer } from "../../plugins/mail.ts";
import type { AuthUser } from "../../types.ts";
import { DEAL_UNAVAILABLE, type OrdersService } from "../orders/service.ts";
import { loginEmail, loginLink } from "./login-email.ts";
import { createAuthRepository } from "./repository.ts";

/** Decision 001 / DESIGN §2 numbers. */
export const LINK_VALID_MINUTES = 10;
export const LINKS_PER_EMAIL = 5;
export const LINK_WINDOW_MINUTES = 15;
export const SESSION_VALID_DAYS = 30;

interface Deps {
  database: Database;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
  orders: Pick<OrdersService, "createPending">;
}

/** Magic-link sign-in: prepare the account, e-mail a single-use link, exchange it for an app JWT. */
export function createAuthService({ database, config, mailer, log, orders }: Deps) {
  const repository = createAuthRepository(database);

  /** The prefilled anonymous credential set, if the password matches (checked in constant time). */
  async function credentialToClaim(input: LoginRequest): Promise<string | null> {
    if (!input.username || !input.password) return null;
    const credential = await repository.findUnclaimedCredential(input.username);
    if (!credential || !hashesEqual(hashSecret(input.password), credential.passwordHash)) return null;
    return credential.id;
  }

  return {
    /** POST /magic/check: the account exists afterwards, whether or not it did before; with
     * purchaseAmount it also holds a pending order of that amount (the link lands on it). A deal
     * is refused before anything is created: no deal is live until deals exist. */
    async prepareAccount(input: LoginRequest): Promise<{ orderId: string | null }> {
      if (input.dealId != null) throw new AppError(404, DEAL_UNAVAILABLE, "deal_unavailable");
      const userId = await repository.upsertUser(database.db, input.email);
      if (input.purchaseAmount == null) return { orderId: null };
      const order = await orders.createPending(userId, input.purchaseAmount);
      return { orderId: order.order_id };
    },

    /** POST /auth/login: same outcome for new and existing accounts; at most LINKS_PER_EMAIL
     * links per e-mail in LINK_WINDOW_MINUTES, counted in the database (holds across instances). */
    async sendLoginLink(input: SendLoginLinkRequest, requestIp: string | null): Promise<void> {
      const claimCredentialId = await credentialToClaim(input);
      const token = randomSecret(32);
      await repository.transaction(async (tx) => {
        const recent = await repository.lockAndCountRecentLinks(tx, input.email, LINK_WINDOW_MINUTES);
        if (recent >= LINKS_PER_EMAIL) throw new AppError(429, LOGIN_RATE_LIMITED, "rate_limited");
        const userId = await repository.upsertUser(tx, input.email);
        await repository.insertLoginToken(tx, {
          tokenHash: hashSecret(token),
          email: input.email,
          userId,
          orderId: input.orderId ?? null,
          requestIp,
          claimCredentialId,
          validMinutes: LINK_VALID_MINUTES,
        });
      });
      const link = loginLink(config.APP_URL, token, input.orderId ?? null);
      await mailer.send(loginEmail(input.email, link, LINK_VALID_MINUTES));
    },

    /** POST /auth/magic/verify: consumes the link, credits the free data once per account,
     * opens a session and returns its JWT. */
    async verifyLoginLink(accessToken: string) {
      const opened = await repository.transaction(async (tx) => {
        const consumed = await repository.consumeLoginToken(tx, hashSecret(accessToken));
        if (!consumed) return null;
        if (config.FREE_GB > 0) {
          // The reference makes this a no-op on every sign-in after the first.
          await applyLedgerEntry(tx, {
            userId: consumed.userId,
            kind: "bonus",
            reference: `free-gb:${consumed.userId}`,
            deltaBytes: Math.round(config.FREE_GB * 1e9),
            note: `Free ${config.FREE_GB} GB`,
          });
        }
        const session = await repository.createSession(tx, consumed.userId, SESSION_VALID_DAYS);
        return { consumed, session };
      });
      if (!opened) throw new AppError(401, LOGIN_LINK_INVALID, "invalid_link");
      const { consumed, session } = opened;
      if (consumed.claimCredentialId) {
        const claimed = await repository.claimCredential(consumed.userId, consumed.claimCredentialId);
        if (!claimed) log.info({ userId: consumed.userId }, "prefilled credentials were not claimed");
      }
      const token = await signAppToken(config.JWT_SECRET, {
        userId: consumed.userId,
        sessionId: session.id,
        exp: session.exp,
      });
      return { token, exp: session.exp, email: consumed.email, id: consumed.userId };
    },

    async sessionUser(user: AuthUser) {
      const row = await repository.findSessionUser(user.id);
      if (!row) throw new AppError(401, "Unauthorized", "unauthorized");
      return row;
    },

    /** Revokes the session the JWT names; an API token has no session to end. */
    async logout(user: AuthUser): Promise<void> {
      if (user.sessionId) await repository.revokeSession(user.sessionId, user.id);
    },

    /** Ends every session of the caller (this one included); the API token keeps working. */
    async logoutEverywhere(user: AuthUser): Promise<void> {
      await repository.revokeAllSessions(user.id);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
