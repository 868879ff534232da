import { CHANGES_CHANNEL, type Database, type SqlExecutor } from "@bytetoll/db";
import { sql } from "drizzle-orm";

/** When the account's API token was made, if it has one. */
export async function tokenCreatedAt(database: Database, userId: string) {
  const [row] = await database.query<{ created_at: Date | string }>(
    "SELECT created_at FROM api_tokens WHERE user_id = $1",
    [userId],
  );
  return row?.created_at ?? null;
}

/** Tells every instance, inside the caller's transaction, that what authorised this account's
 * sessions and API token changed: their caches drop them and their sockets are checked again. */
export async function announceAccountChange(tx: SqlExecutor, userId: string): Promise<void> {
  await tx.execute(sql`
      SELECT pg_notify(${CHANGES_CHANNEL}, payload) FROM (
        SELECT 'session:' || ${userId}::text AS payload
        UNION ALL
        SELECT 'api_token:' || token_hash FROM api_tokens WHERE user_id = ${userId}
      ) AS changes`);
}
