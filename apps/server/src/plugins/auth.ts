import { API_TOKEN_PREFIX } from "@bytetoll/contracts";
import { hashSecret, parseChange } from "@bytetoll/db";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { accountDisabled, unauthorized } from "../errors.ts";
import { type AppTokenClaims, verifyAppToken } from "../lib/app-token.ts";
import type { AuthUser } from "../types.ts";
import type { CachedSession } from "./change-feed.ts";

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]{16,2048})$/i;

/** Tokens whose signature this process has checked, newest last. A token's claims never change,
 * so a hit only needs its expiry re-checked; forged tokens are never stored. */
const VERIFIED_TOKENS_MAX = 20_000;

/** Users whose API token is cached, so that a change to the user reaches those entries too. */
const TOKEN_OWNERS_MAX = 10_000;

interface UserRow {
  id: string;
  email: string;
  disabled: boolean;
}

const USER_COLUMNS = "u.id, u.email, u.disabled_at IS NOT NULL AS disabled";

/**
 * Bearer auth for every protected route: an app JWT (signature, exp, and a session row that is
 * neither revoked nor expired — so logout takes effect at once) or a personal API token (docs/product.md#sign-in),
 * looked up by its hash. Both lookups go through the change-feed caches (decision 006): a logout
 * or a regenerated token reaches every instance's cache at commit. The same lookups say whether
 * an operator disabled the account (403 then), and a change to the user row (users_changed fires
 * on disabled_at) drops that user's entries, so disabling costs no query per request.
 */
async function authPlugin(app: FastifyInstance) {
  app.decorateRequest("user", null);
  const { sessions, apiTokens } = app.changeFeed.caches;
  const verified = new Map<string, AppTokenClaims>();
  const tokenKeysByUser = new Map<string, Set<string>>();

  app.changeFeed.onChange((payload) => {
    const change = payload === null ? null : parseChange(payload);
    if (change?.kind !== "user") return;
    sessions.invalidate(`session:${change.key}`);
    for (const key of tokenKeysByUser.get(change.key) ?? []) apiTokens.invalidate(key);
    tokenKeysByUser.delete(change.key);
  });

  async function claimsOf(token: string): Promise<AppTokenClaims | null> {
    const known = verified.get(token);
    if (known) return known.exp * 1000 > Date.now() ? known : null;
    const claims = await verifyAppToken(app.config.JWT_SECRET, token);
    if (!claims) return null;
    verified.set(token, claims);
    if (verified.size > VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value as string);
    return claims;
  }

  async function loadSession(claims: AppTokenClaims): Promise<CachedSession | null> {
    const [row] = await app.database.query<UserRow & { expires_ms: string | number }>(
      `SELECT ${USER_COLUMNS}, floor(extract(epoch FROM s.expires_at) * 1000) AS expires_ms
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()`,
      [claims.sessionId, claims.userId],
    );
    if (!row) return null;
    return {
      user: { id: row.id, email: row.email, sessionId: claims.sessionId, disabled: row.disabled },
      expiresAt: Number(row.expires_ms),
    };
  }

  async function loadApiTokenUser(key: string, tokenHash: string): Promise<AuthUser | null> {
    const [row] = await app.database.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1`,
      [tokenHash],
    );
    if (!row) return null;
    const keys = tokenKeysByUser.get(row.id) ?? new Set<string>();
    tokenKeysByUser.set(row.id, keys.add(key));
    if (tokenKeysByUser.size > TOKEN_OWNERS_MAX) {
      tokenKeysByUser.delete(tokenKeysByUser.keys().next().value as string);
    }
    return { id: row.id, email: row.email, sessionId: null, disabled: row.disabled };
  }

  async function resolve(request: FastifyRequest): Promise<AuthUser | null> {
    const match = BEARER.exec(request.headers.authorization ?? "");
    const token = match?.[1];
    if (!token) return null;
    if (token.split(".").length === 3) {
      const claims = await claimsOf(token);
      if (!claims) return null;
      const session = await sessions.get(`session:${claims.userId}`, claims.sessionId, () =>
        loadSession(claims),
      );
      return session && session.expiresAt > Date.now() ? session.user : null;
    }
    // Anything else must look like an API token before it costs a database lookup.
    if (!token.startsWith(API_TOKEN_PREFIX)) return null;
    const tokenHash = hashSecret(token);
    const key = `api_token:${tokenHash}`;
    // Unknown tokens are not kept: guessing must not push real ones out of the cache.
    return apiTokens.get(key, key, () => loadApiTokenUser(key, tokenHash), { keep: (user) => user !== null });
  }

  // The rate limiter asks first (signed-in calls are limited per user), then authenticate.
  const identified = new WeakMap<FastifyRequest, Promise<AuthUser | null>>();
  function identify(request: FastifyRequest): Promise<AuthUser | null> {
    let user = identified.get(request);
    if (!user) {
      user = resolve(request);
      identified.set(request, user);
    }
    return user;
  }
  app.decorate("identify", identify);

  app.decorate("authenticate", async (request: FastifyRequest) => {
    const user = await identify(request);
    if (!user) throw unauthorized();
    if (user.disabled) throw accountDisabled(app.config.SUPPORT_CONTACT);
    request.user = user;
  });
}

export default fp(authPlugin, { name: "auth", dependencies: ["change-feed"] });
