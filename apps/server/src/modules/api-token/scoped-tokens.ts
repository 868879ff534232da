import {
  API_TOKEN_PREFIX,
  type CreateScopedToken,
  SCOPED_TOKENS_MAX,
  type Scope,
  type ScopedToken,
} from "@bytetoll/contracts";
import { type Database, hashSecret, randomSecret } from "@bytetoll/db";
import { sql } from "drizzle-orm";
import { AppError, notFound } from "../../errors.ts";
import type { AuthUser } from "../../types.ts";

const TOKEN_BYTES = 32;

type Row = {
  id: string;
  name: string;
  scopes: Scope[];
  expires_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
};

const isoOrNull = (value: Date | null) => (value === null ? null : new Date(value).toISOString());
const toView = (row: Row): ScopedToken => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  expires_at: isoOrNull(row.expires_at),
  last_used_at: isoOrNull(row.last_used_at),
  created_at: new Date(row.created_at).toISOString(),
});

const COLUMNS = "id, name, scopes, expires_at, last_used_at, created_at";

/** docs/product.md#api-tokens: named tokens limited to scopes, shown once, kept as a hash only. */
export function createScopedTokens(database: Database) {
  return {
    async list(accountId: string): Promise<ScopedToken[]> {
      const rows = await database.query<Row>(
        `SELECT ${COLUMNS} FROM scoped_api_tokens WHERE account_id = $1 ORDER BY created_at, id`,
        [accountId],
      );
      return rows.map(toView);
    },

    /** Counted under the account's row lock, so concurrent creations stop at the limit. */
    async create(user: AuthUser, input: CreateScopedToken): Promise<ScopedToken & { token: string }> {
      const token = `${API_TOKEN_PREFIX}${randomSecret(TOKEN_BYTES)}`;
      const row = await database.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT 1 FROM users WHERE id = ${user.id} FOR UPDATE`);
        const counted = await tx.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM scoped_api_tokens WHERE account_id = ${user.id}`,
        );
        if (Number(counted.rows[0]?.n ?? 0) >= SCOPED_TOKENS_MAX) {
          throw new AppError(
            409,
            `An account has at most ${SCOPED_TOKENS_MAX} API tokens.`,
            "too_many_tokens",
          );
        }
        const inserted = await tx.execute<Row>(sql`
          INSERT INTO scoped_api_tokens (account_id, name, scopes, token_hash, expires_at, created_by)
          VALUES (${user.id}, ${input.name}, ${`{${input.scopes.join(",")}}`}::text[], ${hashSecret(token)},
                  ${input.expires_at ?? null}, ${user.actorId})
          RETURNING id, name, scopes, expires_at, last_used_at, created_at`);
        await tx.execute(sql`
          INSERT INTO account_activity (account_id, actor_id, actor_email, action, detail)
          VALUES (${user.id}, ${user.actorId}, ${user.email}, 'api_token.created',
                  ${`${input.name} (${input.scopes.join(", ")})`})`);
        return inserted.rows[0]!;
      });
      return { ...toView(row), token };
    },

    /** Refused from the next request on, on every instance (the delete trigger notifies). */
    async remove(user: AuthUser, id: string): Promise<void> {
      const [row] = await database.query<{ name: string }>(
        "DELETE FROM scoped_api_tokens WHERE id = $1 AND account_id = $2 RETURNING name",
        [id, user.id],
      );
      if (!row) throw notFound("No such API token on this account.");
      await database.query(
        `INSERT INTO account_activity (account_id, actor_id, actor_email, action, detail)
         VALUES ($1, $2, $3, 'api_token.deleted', $4)`,
        [user.id, user.actorId, user.email, row.name],
      );
    },
  };
}
