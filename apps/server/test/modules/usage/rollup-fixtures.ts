import { type Database, schema } from "@bytetoll/db";

export interface RollupRow {
  userId: string;
  /** Days before today (UTC); 0 is today. */
  daysAgo: number;
  domain: string;
  proxyType: "mobile" | "dc";
  bytes: number | string;
  requests: number;
  /** The sub-user whose traffic it was; the account's own credentials when left out. */
  subuserId?: string;
}

/** The UTC day `daysAgo` days before `now`, as the gateway files it (YYYY-MM-DD). */
export function utcDay(daysAgo: number, now = new Date()): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

/** Writes rollups with the gateway's own upsert, so repeated keys add up as they do in production. */
export async function insertRollups(database: Database, rows: RollupRow[], now = new Date()): Promise<void> {
  for (const row of rows) {
    await database.query(
      `INSERT INTO usage_rollups (user_id, day, domain, proxy_type, bytes, requests, subuser_id)
       VALUES ($1, $2::date, $3, $4, $5::bigint, $6::bigint, $7::uuid)
       ON CONFLICT (user_id, day, domain, proxy_type, subuser_id) DO UPDATE
         SET bytes = usage_rollups.bytes + EXCLUDED.bytes,
             requests = usage_rollups.requests + EXCLUDED.requests`,
      [
        row.userId,
        utcDay(row.daysAgo, now),
        row.domain,
        row.proxyType,
        String(row.bytes),
        row.requests,
        row.subuserId ?? schema.NO_SUBUSER,
      ],
    );
  }
}
