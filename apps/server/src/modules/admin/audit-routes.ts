import { type AuditEntry, type AuditQuery, auditPage, auditQuery } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import type { App } from "../../types.ts";
import { accountEmails } from "../auth/index.ts";
import { payoutOwnerEmails } from "../deals/index.ts";
import { orderOwnerEmails } from "../orders/index.ts";
import { adminErrors } from "./schemas.ts";

interface AuditRow {
  id: string;
  actor: string;
  action: string;
  subject_type: string;
  subject_id: string;
  subject_label: string | null;
  before: unknown;
  after: unknown;
  note: string | null;
  created_at: Date | string;
}

/** A deal is named by its title, kept in the row; accounts, orders and payouts by their
 * customer's e-mail, which their modules look up (`withLabels`). */
const SUBJECT_LABEL = `CASE a.subject_type
    WHEN 'deal' THEN COALESCE(a.after->>'deal_title', a.before->>'deal_title')
    WHEN 'destination_rule' THEN COALESCE(a.after->>'reason', a.before->>'reason')
  END AS subject_label`;

/** Who or what a subject id names, for people: ids alone say nothing in the log. A subject
 * that no longer exists keeps a null label. */
async function withLabels(database: Database, rows: AuditRow[]): Promise<AuditRow[]> {
  const ids = (type: string) => [
    ...new Set(rows.filter((row) => row.subject_type === type).map((row) => row.subject_id)),
  ];
  const [accounts, orders, payouts] = await Promise.all([
    accountEmails(database, ids("account")),
    orderOwnerEmails(database, ids("order")),
    payoutOwnerEmails(database, ids("payout")),
  ]);
  const emails: Record<string, Map<string, string>> = { account: accounts, order: orders, payout: payouts };
  return rows.map((row) => {
    const email = emails[row.subject_type]?.get(row.subject_id);
    return email === undefined ? row : { ...row, subject_label: email };
  });
}

/** The audit log, newest first, filtered by exact actor, action and subject id. */
async function auditLog(
  database: Database,
  query: AuditQuery,
): Promise<{ data: AuditEntry[]; total: number }> {
  const filters: string[] = [];
  const params: unknown[] = [];
  const where = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    params.push(value);
    filters.push(`${column} = $${params.length}`);
  };
  where("actor", query.actor);
  where("action", query.action);
  where("subject_id", query.subject);
  const clause = filters.length > 0 ? `WHERE ${filters.join(" AND ")}` : "";
  const [rows, totals] = await Promise.all([
    database.query<AuditRow>(
      `SELECT id, actor, action, subject_type, subject_id, ${SUBJECT_LABEL}, before, after, note, created_at
         FROM admin_audit_log a ${clause}
        ORDER BY created_at DESC, id DESC LIMIT ${query.per_page} OFFSET ${(query.page - 1) * query.per_page}`,
      params,
    ),
    database.query<{ total: string }>(`SELECT count(*) AS total FROM admin_audit_log ${clause}`, params),
  ]);
  return {
    data: (await withLabels(database, rows)).map((row) => ({
      ...row,
      id: Number(row.id),
      created_at: new Date(row.created_at).toISOString(),
    })),
    total: Number(totals[0]?.total ?? 0),
  };
}

/** GET /admin/audit. Registered inside adminRoutes, behind its operator check. */
export async function adminAuditRoutes(app: App) {
  app.get(
    "/admin/audit",
    {
      schema: {
        tags: ["admin"],
        summary: "Every operator action (who, what, on which subject, before/after), newest first",
        security: [{ bearer: [] }],
        querystring: auditQuery,
        response: { 200: auditPage, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await auditLog(app.database, request.query)),
      page: request.query.page,
      per_page: request.query.per_page,
    }),
  );
}
