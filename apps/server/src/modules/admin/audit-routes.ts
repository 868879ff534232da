import { type AuditEntry, type AuditQuery, auditPage, auditQuery } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import type { App } from "../../types.ts";
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

/** Who or what a subject id names, for people: ids alone say nothing in the log. */
const SUBJECT_LABEL = `CASE a.subject_type
    WHEN 'account' THEN (SELECT u.email FROM users u WHERE u.id::text = a.subject_id)
    WHEN 'order' THEN (SELECT u.email FROM orders o JOIN users u ON u.id = o.user_id
                        WHERE o.id::text = a.subject_id)
    WHEN 'payout' THEN (SELECT u.email FROM payouts p JOIN users u ON u.id = p.user_id
                         WHERE p.id::text = a.subject_id)
    WHEN 'deal' THEN COALESCE(a.after->>'deal_title', a.before->>'deal_title')
  END AS subject_label`;

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
    data: rows.map((row) => ({
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
