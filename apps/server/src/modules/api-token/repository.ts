import type { Database } from "@bytetoll/db";

export interface SealedToken {
  tokenHash: string;
  tokenEnc: string;
}

/** The SQL of personal API tokens: one row per account (user_id is the key). */
export function createApiTokenRepository(database: Database) {
  return {
    async findSealed(userId: string): Promise<string | null> {
      const [row] = await database.query<{ token_enc: string }>(
        "SELECT token_enc FROM api_tokens WHERE user_id = $1",
        [userId],
      );
      return row?.token_enc ?? null;
    },

    /** First token of the account; a concurrent first read that lost the race changes nothing. */
    async insertIfAbsent(userId: string, token: SealedToken): Promise<void> {
      await database.query(
        `INSERT INTO api_tokens (user_id, token_hash, token_enc) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO NOTHING`,
        [userId, token.tokenHash, token.tokenEnc],
      );
    },

    /** Replaces the token in one statement: the old hash stops matching at once. */
    async replace(userId: string, token: SealedToken): Promise<void> {
      await database.query(
        `INSERT INTO api_tokens (user_id, token_hash, token_enc) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE
           SET token_hash = EXCLUDED.token_hash, token_enc = EXCLUDED.token_enc, created_at = now()`,
        [userId, token.tokenHash, token.tokenEnc],
      );
    },
  };
}
