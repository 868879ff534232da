import { API_TOKEN_PREFIX, type Role, type Scope } from "@bytetoll/contracts";
import { hashSecret, parseChange } from "@bytetoll/db";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { accountDisabled, unauthorized } from "../errors.ts";
import { type AppTokenClaims, verifyAppToken } from "../lib/app-token.ts";
import type { AuthUser } from "../types.ts";
import { createLastUseRecorder } from "./api-token-last-use.ts";
import type { CachedSession } from "./change-feed.ts";
import { checkAccess, installRouteAccess } from "./route-access.ts";

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]{16,2048})$/i;

/** Tokens whose signature this process has checked, newest last. A token's claims never change,
 * so a hit only needs its expiry re-checked; forged tokens are never stored. */
const VERIFIED_TOKENS_MAX = 20_000;

/** Users whose API token is cached, so that a change to the user reaches those entries too. */
const TOKEN_OWNERS_MAX = 10_000;

interface AccessRow {
  id: string;
  actor_id: string;
  email: string;
  role: Role;
  disabled: boolean;
}

/** The account acted on (a), the person (u): disabled when either is. */
const ACCESS_COLUMNS =
  "a.id, u.id AS actor_id, u.email, (u.disabled_at IS NOT NULL OR a.disabled_at IS NOT NULL) AS disabled";

const toUser = (row: AccessRow, sessionId: string | null): AuthUser => ({
  id: row.id,
  actorId: row.actor_id,
  email: row.email,
  role: row.role,
  scopes: null,
  apiTokenId: null,
  expiresAt: null,
  sessionId,
  disabled: row.disabled,
});

/** Adds `value` to the set under `key`, keeping at most TOKEN_OWNERS_MAX keys (the oldest go:
 * their cache entries then expire with the cache's TTL instead). */
function remember(map: Map<string, Set<string>>, key: string, value: string): void {
  const values = map.get(key) ?? new Set<string>();
  map.set(key, values.add(value));
  if (map.size > TOKEN_OWNERS_MAX) map.delete(map.keys().next().value as string);
}

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
  installRouteAccess(app);
  const { sessions, apiTokens } = app.changeFeed.caches;
  const verified = new Map<string, AppTokenClaims>();
  const tokenKeysByUser = new Map<string, Set<string>>();
  /** The people whose cached sessions act on an account that is not their own: a change to the
   * account's row (an operator disabling it) drops their entries too. */
  const membersByAccount = new Map<string, Set<string>>();
  const lastUse = createLastUseRecorder(app);

  app.changeFeed.onChange((payload) => {
    const change = payload === null ? null : parseChange(payload);
    if (change?.kind !== "user") return;
    sessions.invalidate(`session:${change.key}`);
    for (const member of membersByAccount.get(change.key) ?? []) sessions.invalidate(`session:${member}`);
    membersByAccount.delete(change.key);
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
    // A session on someone else's account needs the membership to still exist (removal also
    // revokes it, in the same transaction).
    const [row] = await app.database.query<AccessRow & { expires_ms: string | number }>(
      `SELECT ${ACCESS_COLUMNS}, s.role, floor(extract(epoch FROM s.expires_at) * 1000) AS expires_ms
         FROM sessions s JOIN users u ON u.id = s.user_id
         JOIN users a ON a.id = COALESCE(s.account_id, s.user_id)
        WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()
          AND (s.account_id IS NULL OR EXISTS (SELECT 1 FROM account_members m
                WHERE m.account_id = s.account_id AND m.user_id = s.user_id))`,
      [claims.sessionId, claims.userId],
    );
    if (!row) return null;
    if (row.id !== claims.userId) remember(membersByAccount, row.id, claims.userId);
    return { user: toUser(row, claims.sessionId), expiresAt: Number(row.expires_ms) };
  }

  async function loadApiTokenUser(key: string, tokenHash: string): Promise<AuthUser | null> {
    // The account's original token (every scope), or a scoped one; either acts as the owner.
    const [row] = await app.database.query<
      AccessRow & { token_id: string | null; scopes: Scope[] | null; expires_ms: string | number | null }
    >(
      `SELECT ${ACCESS_COLUMNS}, 'owner' AS role, NULL::uuid AS token_id, NULL::text[] AS scopes,
              NULL::float8 AS expires_ms
         FROM api_tokens t JOIN users a ON a.id = t.user_id JOIN users u ON u.id = a.id
        WHERE t.token_hash = $1
       UNION ALL
       SELECT ${ACCESS_COLUMNS}, 'owner', t.id, t.scopes, floor(extract(epoch FROM t.expires_at) * 1000)
         FROM scoped_api_tokens t JOIN users a ON a.id = t.account_id JOIN users u ON u.id = a.id
        WHERE t.token_hash = $1`,
      [tokenHash],
    );
    if (!row) return null;
    remember(tokenKeysByUser, row.id, key);
    return {
      ...toUser(row, null),
      scopes: row.scopes,
      apiTokenId: row.token_id,
      expiresAt: row.expires_ms === null ? null : Number(row.expires_ms),
    };
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
    const user = await apiTokens.get(key, key, () => loadApiTokenUser(key, tokenHash), {
      keep: (found) => found !== null,
    });
    if (!user || (user.expiresAt !== null && user.expiresAt <= Date.now())) return null;
    if (user.apiTokenId) lastUse.touch(user.apiTokenId);
    return user;
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

  // A route's permission is checked before its body is validated: a caller who may not use the
  // route learns nothing from it but the refusal.
  app.addHook("preValidation", async (request) => {
    const access = request.routeOptions.config.access;
    if (access === undefined || access === "public" || access === "operator") return;
    const user = await identify(request);
    if (!user) throw unauthorized();
    if (user.disabled) throw accountDisabled(app.config.SUPPORT_CONTACT);
    checkAccess(access, user);
  });

  app.decorate("authenticate", async (request: FastifyRequest) => {
    const user = await identify(request);
    if (!user) throw unauthorized();
    if (user.disabled) throw accountDisabled(app.config.SUPPORT_CONTACT);
    checkAccess(request.routeOptions.config.access, user);
    request.user = user;
  });
}

export default fp(authPlugin, { name: "auth", dependencies: ["change-feed"] });
