import type { Database, SqlExecutor } from "@bytetoll/db";
import { sql } from "drizzle-orm";

/** Advisory-lock class for per-e-mail login-link counting (any constant unique to this use). */
const LOGIN_LOCK_CLASS = 727_001;

export interface ConsumedToken {
  /** Null when the account did not exist yet at request time. */
  userId: string | null;
  email: string;
  claimCredentialId: string | null;
  purchaseAmountUsd: number | null;
  dealId: number | null;
}

export interface NewLoginToken {
  tokenHash: string;
  email: string;
  limitKey: string;
  orderId: string | null;
  dealId: number | null;
  purchaseAmountUsd: number | null;
  requestIp: string | null;
  claimCredentialId: string | null;
  validMinutes: number;
}

/** The SQL of sign-in. Every state change is one conditional statement, safe across instances. */
export function createAuthRepository(database: Database) {
  const { db } = database;
  return {
    /** Creates the account if new; the same id comes back either way. */
    async upsertUser(executor: SqlExecutor, email: string): Promise<string> {
      const result = await executor.execute<{ id: string }>(sql`
        INSERT INTO users (email) VALUES (${email})
        ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email
        RETURNING id`);
      return result.rows[0]!.id;
    },

    /**
     * Serialises link requests for one limit key across instances (the lock lives until the
     * transaction ends) and counts the links issued for it in the window.
     */
    async lockAndCountRecentLinks(
      executor: SqlExecutor,
      limitKey: string,
      windowMinutes: number,
    ): Promise<number> {
      await executor.execute(sql`SELECT pg_advisory_xact_lock(${LOGIN_LOCK_CLASS}, hashtext(${limitKey}))`);
      const result = await executor.execute<{ count: string | number }>(sql`
        SELECT count(*) AS count FROM login_tokens
        WHERE limit_key = ${limitKey} AND created_at > now() - make_interval(mins => ${windowMinutes})`);
      return Number(result.rows[0]?.count ?? 0);
    },

    /** Names the account if it exists already; never creates one (the link has proved nothing yet). */
    async insertLoginToken(executor: SqlExecutor, token: NewLoginToken): Promise<void> {
      await executor.execute(sql`
        INSERT INTO login_tokens (token_hash, email, limit_key, user_id, order_id, deal_id,
                                  purchase_amount_usd, request_ip, claim_credential_id, expires_at)
        VALUES (${token.tokenHash}, ${token.email}, ${token.limitKey},
                (SELECT id FROM users WHERE email = ${token.email}), ${token.orderId}, ${token.dealId},
                ${token.purchaseAmountUsd}, ${token.requestIp}, ${token.claimCredentialId},
                now() + make_interval(mins => ${token.validMinutes}))`);
    },

    /**
     * Single use in one statement: of two concurrent calls with the same token only one gets the
     * row back. A token that named an account must still belong to that account's current e-mail.
     */
    async consumeLoginToken(executor: SqlExecutor, tokenHash: string): Promise<ConsumedToken | null> {
      const result = await executor.execute<{
        user_id: string | null;
        email: string;
        claim_credential_id: string | null;
        purchase_amount_usd: number | null;
        deal_id: number | null;
      }>(sql`
        UPDATE login_tokens t SET used_at = now()
        WHERE t.token_hash = ${tokenHash} AND t.used_at IS NULL AND t.expires_at > now()
          AND (t.user_id IS NULL OR EXISTS (SELECT 1 FROM users u WHERE u.id = t.user_id AND u.email = t.email))
        RETURNING t.user_id, t.email, t.claim_credential_id, t.purchase_amount_usd, t.deal_id`);
      const row = result.rows[0];
      if (!row) return null;
      return {
        userId: row.user_id,
        email: row.email,
        claimCredentialId: row.claim_credential_id,
        purchaseAmountUsd: row.purchase_amount_usd === null ? null : Number(row.purchase_amount_usd),
        dealId: row.deal_id === null ? null : Number(row.deal_id),
      };
    },

    /** An operator disabled the account (docs/product.md#operators): it may not sign in. */
    async isDisabled(executor: SqlExecutor, userId: string): Promise<boolean> {
      const result = await executor.execute<{ disabled: boolean }>(sql`
        SELECT disabled_at IS NOT NULL AS disabled FROM users WHERE id = ${userId}`);
      return result.rows[0]?.disabled === true;
    },

    async createSession(executor: SqlExecutor, userId: string, validDays: number) {
      const result = await executor.execute<{ id: string; exp: string | number }>(sql`
        INSERT INTO sessions (user_id, expires_at) VALUES (${userId}, now() + make_interval(days => ${validDays}))
        RETURNING id, floor(extract(epoch FROM expires_at))::bigint AS exp`);
      const row = result.rows[0]!;
      return { id: row.id, exp: Number(row.exp) };
    },

    /** An anonymous credential set by username, for the prefill claim. */
    async findUnclaimedCredential(username: string): Promise<{ id: string; passwordHash: string } | null> {
      const [row] = await database.query<{ id: string; password_hash: string }>(
        "SELECT id, password_hash FROM proxy_credentials WHERE username = $1 AND user_id IS NULL",
        [username],
      );
      return row ? { id: row.id, passwordHash: row.password_hash } : null;
    },

    /** Attaches the set only if still unclaimed and the account has none (one set per account;
     * the unique index on user_id settles a race). The caller has checked the password. */
    async claimCredential(userId: string, credentialId: string): Promise<boolean> {
      try {
        const result = await db.execute<{ id: string }>(sql`
          UPDATE proxy_credentials SET user_id = ${userId}, updated_at = now()
          WHERE id = ${credentialId} AND user_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM proxy_credentials WHERE user_id = ${userId})
          RETURNING id`);
        return result.rows.length > 0;
      } catch (error) {
        if ((error as { code?: string }).code === "23505") return false;
        throw error;
      }
    },

    async findSessionUser(userId: string) {
      const [row] = await database.query<{ id: string; email: string; refund_address: string | null }>(
        "SELECT id, email, refund_address FROM users WHERE id = $1",
        [userId],
      );
      return row ?? null;
    },

    async revokeSession(sessionId: string, userId: string): Promise<void> {
      await database.query(
        "UPDATE sessions SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL",
        [sessionId, userId],
      );
    },

    /** Sign-out everywhere: every live session of the account, in one statement. API tokens are
     * a separate credential (api_tokens) and stay valid. */
    async revokeAllSessions(userId: string): Promise<void> {
      await database.query(
        "UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL",
        [userId],
      );
    },

    transaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(tx));
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
