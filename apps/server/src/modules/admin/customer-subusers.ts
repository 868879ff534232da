import {
  type AdminCustomerDetail,
  type AdminSubuser,
  bytesToGb,
  CUSTOMER_PAGE_ROWS,
  type SubuserLimitPeriod,
} from "@bytetoll/contracts";
import { type Database, schema } from "@bytetoll/db";

type SubuserRow = {
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

const traffic = (bytes: string | number | undefined, requests: string | number | undefined) => ({
  bytes: Number(bytes ?? 0),
  gb: bytesToGb(Number(bytes ?? 0)),
  requests: Number(requests ?? 0),
});

const toAdminSubuser = (row: SubuserRow): AdminSubuser => {
  const limitBytes = row.limit_bytes === null ? null : Number(row.limit_bytes);
  const usedBytes = Number(row.used_bytes);
  return {
    id: row.id,
    label: row.label,
    username: row.username,
    limit_gb: limitBytes === null ? null : limitBytes / 1e9,
    limit_bytes: limitBytes,
    limit_period: row.limit_period,
    used_gb: Math.round(usedBytes / 1e6) / 1e3,
    used_bytes: usedBytes,
    period_start: row.period_start,
    enabled: row.enabled,
    created_at: new Date(row.created_at).toISOString(),
    last_30_days: traffic(row.bytes, row.requests),
  };
};

/**
 * A page of the customer's sub-users (oldest first) with each one's limit, this period's use (an
 * earlier period's counts as none, as on the customer's own page) and traffic since `since`; and
 * the rest of that traffic, split into the account's own credentials and deleted sub-users.
 */
export async function customerSubusers(
  database: Database,
  userId: string,
  page: number,
  since: string,
): Promise<AdminCustomerDetail["subusers"]> {
  const [rows, totals, rest] = await Promise.all([
    database.query<SubuserRow>(
      `SELECT s.id, s.label, s.username, s.limit_bytes, s.limit_period, s.enabled, s.created_at,
              CASE WHEN s.period_start = subuser_period_start(s.limit_period) THEN s.used_bytes ELSE 0 END AS used_bytes,
              to_char(subuser_period_start(s.limit_period), 'YYYY-MM-DD') AS period_start,
              coalesce(t.bytes, 0) AS bytes, coalesce(t.requests, 0) AS requests
         FROM subusers s
         LEFT JOIN LATERAL (
           SELECT sum(bytes) AS bytes, sum(requests) AS requests FROM usage_daily_totals
            WHERE user_id = s.user_id AND subuser_id = s.id AND day >= $2::date) t ON true
        WHERE s.user_id = $1
        ORDER BY s.created_at, s.id LIMIT ${CUSTOMER_PAGE_ROWS} OFFSET ${(page - 1) * CUSTOMER_PAGE_ROWS}`,
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
  const main = rest.find((row) => row.main);
  const deleted = rest.find((row) => !row.main);
  return {
    data: rows.map(toAdminSubuser),
    page,
    per_page: CUSTOMER_PAGE_ROWS,
    total: Number(totals[0]?.total ?? 0),
    main_credentials: traffic(main?.bytes, main?.requests),
    deleted: traffic(deleted?.bytes, deleted?.requests),
  };
}
