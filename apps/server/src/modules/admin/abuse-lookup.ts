import type {
  AbuseLookupQuery,
  AbuseLookupResponse,
  AbuseLookupRow,
  AbuseReportHit,
} from "@bytetoll/contracts";
import { type Database, schema } from "@bytetoll/db";
import { accountLabels } from "../auth/index.ts";
import { subuserLabels } from "../subusers/index.ts";
import { targetUsageByDay } from "../usage/index.ts";

/** The customers' e-mail and state, and the sub-users' labels, for these credentials. */
async function labelsOf(database: Database, rows: Array<{ user_id: string; subuser_id: string | null }>) {
  const [accounts, subusers] = await Promise.all([
    accountLabels(database, [...new Set(rows.map((row) => row.user_id))]),
    subuserLabels(database, [...new Set(rows.flatMap((row) => (row.subuser_id ? [row.subuser_id] : [])))]),
  ]);
  return { accounts, subusers };
}

/**
 * Who reached `target` from `from` to `to` (UTC days, both included): every credential with
 * traffic to the target or a name below it, from the daily per-credential domain totals the
 * usage pages read (the usage module's targetUsageByDay). Usage is kept by the name the client
 * gave, so an address finds the traffic sent to that address, not to names resolving to it.
 * Largest first; accounts that no longer exist are left out.
 */
export async function abuseLookup(
  database: Database,
  { target, from, to }: AbuseLookupQuery,
): Promise<AbuseLookupResponse["data"]> {
  const rows = await targetUsageByDay(database, target, from, to);
  const { accounts, subusers } = await labelsOf(database, rows);
  const byCredential = new Map<string, AbuseLookupRow>();
  for (const row of rows) {
    const account = accounts.get(row.user_id);
    if (!account) continue;
    const key = `${row.user_id} ${row.subuser_id}`;
    let entry = byCredential.get(key);
    if (!entry) {
      entry = {
        customer_id: row.user_id,
        email: account.email,
        disabled: account.disabled,
        subuser_id: row.subuser_id === schema.NO_SUBUSER ? null : row.subuser_id,
        subuser_label: subusers.get(row.subuser_id) ?? null,
        total_bytes: 0,
        days: [],
      };
      byCredential.set(key, entry);
    }
    const bytes = Number(row.bytes);
    entry.days.push({ day: row.day, bytes });
    entry.total_bytes += bytes;
  }
  const found = [...byCredential.values()].sort((a, b) => b.total_bytes - a.total_bytes);
  return { target, from, to, rows: found, reported: await reportHits(database, { target, from, to }) };
}

type ReportRow = Omit<AbuseReportHit, "hits" | "rule_id" | "email" | "subuser_label"> & {
  rule_id: string | number;
  hits: string | number;
};

/** What report rules let through to the target in the window (the gateways' reports, and the
 * admin module's rules), most hits first. */
async function reportHits(
  database: Database,
  { target, from, to }: AbuseLookupQuery,
): Promise<AbuseReportHit[]> {
  const rows = await database.query<ReportRow>(
    `SELECT h.rule_id, r.reason, h.user_id::text AS customer_id,
            NULLIF(h.subuser_id, $4::uuid)::text AS subuser_id, h.domain,
            to_char(h.day, 'YYYY-MM-DD') AS day, h.hits
       FROM destination_report_hits h
       LEFT JOIN destination_rules r ON r.id = h.rule_id
      WHERE h.day BETWEEN $2::date AND $3::date
        AND (h.domain = $1 OR right(h.domain, length($1) + 1) = '.' || $1)
      ORDER BY h.hits DESC, h.day, h.rule_id`,
    [target, from, to, schema.NO_SUBUSER],
  );
  const { accounts, subusers } = await labelsOf(
    database,
    rows.map((row) => ({ user_id: row.customer_id, subuser_id: row.subuser_id })),
  );
  return rows.flatMap((row) => {
    const account = accounts.get(row.customer_id);
    if (!account) return [];
    const subuserLabel = row.subuser_id ? (subusers.get(row.subuser_id) ?? null) : null;
    return [
      {
        ...row,
        email: account.email,
        subuser_label: subuserLabel,
        rule_id: Number(row.rule_id),
        hits: Number(row.hits),
      },
    ];
  });
}
