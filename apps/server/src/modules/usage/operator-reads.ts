import { type Database, schema } from "@bytetoll/db";

/** The operator console's reads of the metered traffic (usage_daily_totals, the gateways'
 * rollup this module serves); the admin module composes them (docs/architecture.md). */

/** The account's bytes and requests per UTC day since `since` (days without traffic are absent). */
export async function accountUsageByDay(database: Database, userId: string, since: string) {
  return database.query<{ day: string; bytes: string; requests: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(bytes) AS bytes, sum(requests) AS requests
             FROM usage_daily_totals WHERE user_id = $1 AND day >= $2::date
            GROUP BY day`,
    [userId, since],
  );
}

/** Every account's bytes together per UTC day since `from`. */
export async function usedBytesByDay(database: Database, from: string) {
  return database.query<{ day: string; bytes: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(bytes) AS bytes
         FROM usage_daily_totals WHERE day >= $1::date GROUP BY 1`,
    [from],
  );
}

/** How many accounts moved traffic since `from`. */
export async function activeAccounts(database: Database, from: string): Promise<number> {
  const [row] = await database.query<{ active: string }>(
    "SELECT count(DISTINCT user_id) AS active FROM usage_daily_totals WHERE day >= $1::date AND bytes > 0",
    [from],
  );
  return Number(row?.active ?? 0);
}

/**
 * Each credential's bytes per UTC day from `from` to `to` (both included) to `target` or a name
 * below it, from the daily per-credential domain totals (migration 0030): usage is kept by the
 * name the client gave, so an address finds the traffic sent to that address.
 */
export async function targetUsageByDay(database: Database, target: string, from: string, to: string) {
  return database.query<{ user_id: string; subuser_id: string; day: string; bytes: string | number }>(
    `SELECT t.user_id::text AS user_id, t.subuser_id::text AS subuser_id,
            to_char(t.start, 'YYYY-MM-DD') AS day, sum(t.mobile_bytes + t.dc_bytes) AS bytes
       FROM usage_domain_totals t
      WHERE t.span = 1 AND t.subuser_id <> $4::uuid AND t.start BETWEEN $2::date AND $3::date
        AND (t.domain = $1 OR right(t.domain, length($1) + 1) = '.' || $1)
      GROUP BY t.user_id, t.subuser_id, t.start
      ORDER BY t.start`,
    [target, from, to, schema.ALL_SUBUSERS],
  );
}
