import type { Database } from "@bytetoll/db";

/** The account's proxy username and when it last changed, if it has credentials. */
export async function credentialSummary(database: Database, userId: string) {
  const [row] = await database.query<{ username: string; updated_at: Date | string }>(
    "SELECT username, updated_at FROM proxy_credentials WHERE user_id = $1",
    [userId],
  );
  return row;
}
