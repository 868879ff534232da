import {
  gbToBytes,
  LOGIN_LINK_INVALID,
  LOGIN_RATE_LIMITED,
  type LoginRequest,
  loginLimitKey,
  type MagicVerifyRequest,
  type SendLoginLinkRequest,
  type SignedIn,
  type TwoFactorChallenge,
  type TwoFactorVerifyRequest,
} from "@bytetoll/contracts";
import {
  type Database,
  grantBonus,
  hashesEqual,
  hashSecret,
  randomSecret,
  type SqlExecutor,
} from "@bytetoll/db";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.ts";
import { AppError, accountDisabled } from "../../errors.ts";
import { signAppToken } from "../../lib/app-token.ts";
import type { Mailer } from "../../plugins/mail.ts";
import type { AuthUser } from "../../types.ts";
import { operatorFlags } from "../admin/index.ts";
import type { DealsService } from "../deals/index.ts";
import type { OrdersService } from "../orders/index.ts";
import { createSignInFactor } from "../two-factor/index.ts";
import { loginEmail, loginLink } from "./login-email.ts";
import { createAuthRepository } from "./repository.ts";

/** Decision 001 / docs/product.md#sign-in numbers. */
export const LINK_VALID_MINUTES = 10;
export const LINKS_PER_EMAIL = 5;
export const LINK_WINDOW_MINUTES = 15;
export const SESSION_VALID_DAYS = 30;

interface Deps {
  database: Database;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
  orders: Pick<OrdersService, "createPending" | "createPendingForDeal">;
  deals: Pick<DealsService, "signInTerms">;
}

/**
 * Magic-link sign-in: e-mail a single-use link, exchange it for an app JWT. Nothing is written
 * for an address (account, order, attached credentials) until its link is followed.
 */
export function createAuthService({ database, config, mailer, log, orders, deals }: Deps) {
  const repository = createAuthRepository(database);
  const secondFactor = createSignInFactor({ database, config });

  /** A login request naming a deal must name a live one, at terms it can be bought at. */
  async function checkDeal(input: LoginRequest): Promise<void> {
    if (input.dealId != null) await deals.signInTerms(input.dealId, input.purchaseAmount ?? null);
  }

  /** The unclaimed anonymous credential set these name, if the password matches (checked in
   * constant time). */
  async function matchingCredential(username?: string, password?: string): Promise<string | null> {
    if (!username || !password) return null;
    const credential = await repository.findUnclaimedCredential(username);
    if (!credential || !hashesEqual(hashSecret(password), credential.passwordHash)) return null;
    return credential.id;
  }

  /** The free data, once per account: the reference makes it a no-op on every later sign-in. */
  async function creditFreeData(tx: SqlExecutor, userId: string): Promise<void> {
    if (config.FREE_GB <= 0) return;
    await grantBonus(tx, {
      userId,
      bytes: gbToBytes(config.FREE_GB),
      note: `Free ${config.FREE_GB} GB`,
    });
  }

  /** Attaches the credential set the login request named only when the browser following the
   * link presents it again (its password): whoever merely knows the e-mail cannot do that. */
  async function claimPrefilled(userId: string, claimId: string | null, input: MagicVerifyRequest) {
    if (!claimId) return;
    const presented = await matchingCredential(input.username, input.password);
    const claimed = presented === claimId && (await repository.claimCredential(userId, claimId));
    if (!claimed) log.info({ userId }, "prefilled credentials were not claimed");
  }

  /** The order the login request asked for. The link is spent already: a failure here leaves
   * the person signed in without the order rather than without either. */
  async function pendingOrder(
    userId: string,
    amountUsd: number | null,
    dealId: number | null,
  ): Promise<string | null> {
    if (amountUsd === null && dealId === null) return null;
    try {
      if (dealId !== null) {
        const terms = await deals.signInTerms(dealId, amountUsd);
        return (await orders.createPendingForDeal(userId, terms)).order_id;
      }
      if (amountUsd === null) return null;
      return (await orders.createPending(userId, amountUsd)).order_id;
    } catch (error) {
      log.error({ err: error, userId }, "the sign-in order could not be created");
      return null;
    }
  }

  /** The app token of a new session, with the order the login request asked for. */
  async function signedIn(
    userId: string,
    email: string,
    session: { id: string; exp: number },
    order: { purchaseAmountUsd: number | null; dealId: number | null },
  ): Promise<SignedIn> {
    const orderId = await pendingOrder(userId, order.purchaseAmountUsd, order.dealId);
    const token = await signAppToken(config.JWT_SECRET, { userId, sessionId: session.id, exp: session.exp });
    return { token, exp: session.exp, email, id: userId, order_id: orderId };
  }

  return {
    /** POST /magic/check: validates the login request and writes nothing (the address is not
     * proved yet); a deal must be live. */
    async checkLoginRequest(input: LoginRequest): Promise<{ orderId: null }> {
      await checkDeal(input);
      return { orderId: null };
    },

    /** POST /auth/login: same outcome for new and existing accounts; at most LINKS_PER_EMAIL
     * links per mailbox (plus tags and a trailing dot do not make another) in
     * LINK_WINDOW_MINUTES, counted in the database (holds across instances). */
    async sendLoginLink(input: SendLoginLinkRequest, requestIp: string | null): Promise<void> {
      await checkDeal(input);
      const claimCredentialId = await matchingCredential(input.username, input.password);
      const limitKey = loginLimitKey(input.email);
      const token = randomSecret(32);
      await repository.transaction(async (tx) => {
        const recent = await repository.lockAndCountRecentLinks(tx, limitKey, LINK_WINDOW_MINUTES);
        if (recent >= LINKS_PER_EMAIL) throw new AppError(429, LOGIN_RATE_LIMITED, "rate_limited");
        await repository.insertLoginToken(tx, {
          tokenHash: hashSecret(token),
          email: input.email,
          limitKey,
          orderId: input.orderId ?? null,
          dealId: input.dealId ?? null,
          purchaseAmountUsd: input.purchaseAmount ?? null,
          requestIp,
          claimCredentialId,
          validMinutes: LINK_VALID_MINUTES,
        });
      });
      const link = loginLink(config.APP_URL, token, input.orderId ?? null);
      await mailer.send(loginEmail(input.email, link, LINK_VALID_MINUTES));
    },

    /** POST /auth/magic/verify: consumes the link (the address is proved), creates the account
     * if new, credits the free data once per account, opens a session, then attaches the
     * prefilled credentials and makes the order the login request asked for. An account with a
     * second factor gets a challenge instead, and the session once the factor is given. */
    async verifyLoginLink(input: MagicVerifyRequest): Promise<SignedIn | TwoFactorChallenge> {
      const opened = await repository.transaction(async (tx) => {
        const consumed = await repository.consumeLoginToken(tx, hashSecret(input.access_token));
        if (!consumed) return null;
        const userId = consumed.userId ?? (await repository.upsertUser(tx, consumed.email));
        // Only whoever holds the mailbox gets this far, so saying why reveals nothing to others.
        if (await repository.isDisabled(tx, userId)) {
          throw accountDisabled(config.SUPPORT_CONTACT);
        }
        await creditFreeData(tx, userId);
        const challenge = await secondFactor.open(tx, userId, consumed);
        if (challenge) return { consumed, userId, challenge, session: null };
        const session = await repository.createSession(tx, userId, SESSION_VALID_DAYS);
        return { consumed, userId, challenge: null, session };
      });
      if (!opened) throw new AppError(401, LOGIN_LINK_INVALID, "invalid_link");
      const { consumed, userId, challenge, session } = opened;
      if (challenge || !session) return challenge!;
      await claimPrefilled(userId, consumed.claimCredentialId, input);
      return signedIn(userId, consumed.email, session, consumed);
    },

    /** POST /auth/2fa/verify: the challenge and a right factor open the session. */
    async verifySecondFactor(input: TwoFactorVerifyRequest, ip: string): Promise<SignedIn> {
      const redeemed = await secondFactor.redeem(input, ip);
      const session = await repository.transaction(async (tx) => {
        if (await repository.isDisabled(tx, redeemed.userId)) throw accountDisabled(config.SUPPORT_CONTACT);
        return repository.createSession(tx, redeemed.userId, SESSION_VALID_DAYS);
      });
      const user = await repository.findSessionUser(redeemed.userId);
      if (!user) throw new AppError(401, LOGIN_LINK_INVALID, "invalid_link");
      return signedIn(redeemed.userId, user.email, session, redeemed);
    },

    async sessionUser(user: AuthUser) {
      // The account the token acts on (its id keys the realtime channels), and who is signed in.
      const row = await repository.findSessionUser(user.id);
      if (!row) throw new AppError(401, "Unauthorized", "unauthorized");
      const ownAccount = user.actorId === user.id;
      const person = { id: user.actorId, email: user.email };
      return { ...row, email: user.email, ...(await operatorFlags(config, database, person, ownAccount)) };
    },

    /** Revokes the session the JWT names; an API token has no session to end. */
    async logout(user: AuthUser): Promise<void> {
      if (user.sessionId) await repository.revokeSession(user.sessionId, user.actorId);
    },

    /** Ends every session of the caller (this one included); the API token keeps working. */
    async logoutEverywhere(user: AuthUser): Promise<void> {
      await repository.revokeAllSessions(user.actorId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
