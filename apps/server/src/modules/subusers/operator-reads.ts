import type { SubuserLimitPeriod } from "@bytetoll/contracts";
import { type Database, schema } from "@bytetoll/db";

/** One sub-user as the operator console reads it: its limit, this period's use (an earlier
 * period's counts as none, as on the customer's own page) and its traffic since a day. */
export type OperatorSubuserRow = {
  id: string;
  label: string;
  username: string;
  limit_bytes: string | number | null;
  limit_period: SubuserLimitPeriod;
  used_bytes: string | number;
  period_start: string;
  enabled: boolean;
  created_at: Date | string;
  bytes: string | number;
  requests: string | number;
};

/**
 * A page of the account's sub-users (oldest first), how many it has, and the rest of its traffic
 * since `since`, split into the account's own credentials (`main`) and deleted sub-users.
 */
export async function subusersForOperator(
  database: Database,
  userId: string,
  pageRows: number,
  page: number,
  since: string,
) {
  const [rows, totals, rest] = await Promise.all([
    database.query<OperatorSubuserRow>(
      `SELECT s.id, s.label, s.username, s.limit_bytes, s.limit_period, s.enabled, s.created_at,
              CASE WHEN s.period_start = subuser_period_start(s.limit_period) THEN s.used_bytes ELSE 0 END AS used_bytes,
              to_char(subuser_period_start(s.limit_period), 'YYYY-MM-DD') AS period_start,
              coalesce(t.bytes, 0) AS bytes, coalesce(t.requests, 0) AS requests
         FROM subusers s
         LEFT JOIN LATERAL (
           SELECT sum(bytes) AS bytes, sum(requests) AS requests FROM usage_daily_totals
            WHERE user_id = s.user_id AND subuser_id = s.id AND day >= $2::date) t ON true
        WHERE s.user_id = $1
        ORDER BY s.created_at, s.id LIMIT ${pageRows} OFFSET ${(page - 1) * pageRows}`,
      [userId, since],
    ),
    database.query<{ total: string }>("SELECT count(*) AS total FROM subusers WHERE user_id = $1", [userId]),
    database.query<{ main: boolean; bytes: string; requests: string }>(
      `SELECT t.subuser_id = $3::uuid AS main, sum(t.bytes) AS bytes, sum(t.requests) AS requests
         FROM usage_daily_totals t
        WHERE t.user_id = $1 AND t.day >= $2::date
          AND (t.subuser_id = $3::uuid OR NOT EXISTS (SELECT 1 FROM subusers s WHERE s.id = t.subuser_id))
        GROUP BY 1`,
      [userId, since, schema.NO_SUBUSER],
    ),
  ]);
  return { rows, total: Number(totals[0]?.total ?? 0), rest };
}

/** The label of each of these sub-user ids (as text) that names a sub-user (deleted ones have none). */
export async function subuserLabels(database: Database, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await database.query<{ id: string; label: string }>(
    "SELECT s.id::text AS id, s.label FROM subusers s WHERE s.id::text = ANY($1::text[])",
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.label]));
}
