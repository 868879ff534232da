import type { Deal, Payout } from "@bytetoll/contracts";
import type { SqlExecutor } from "@bytetoll/db";
import { sql } from "drizzle-orm";
import type { RecordChange } from "../deals/index.ts";

/** Who acted: an operator's e-mail (ADMIN_EMAILS), or "admin-token" / "cli" for scripts. */
export type AuditActor = string;
export const ADMIN_TOKEN_ACTOR = "admin-token";
export const CLI_ACTOR = "cli";

/** "account" | "order" | "deal" | "payout" | what another module names (e.g. "upstream"). */
export interface AuditEntryInput {
  actor: AuditActor;
  /** `<subject>.<verb>`, e.g. "customer.disable", "order.mark_paid", "deal.update". */
  action: string;
  subjectType: string;
  subjectId: string;
  /** The subject's state before and after (JSON); null when there is none (a creation). */
  before?: unknown;
  after?: unknown;
  note?: string | null;
}

/**
 * Appends one row to admin_audit_log (append-only: the database refuses UPDATE and DELETE).
 * `db` is the database or an open transaction: write the row in the action's own transaction
 * when there is one, so an action and its audit row commit together.
 */
export async function appendAudit(db: SqlExecutor, entry: AuditEntryInput): Promise<void> {
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  await db.execute(sql`
    INSERT INTO admin_audit_log (actor, action, subject_type, subject_id, before, after, note)
    VALUES (${entry.actor}, ${entry.action}, ${entry.subjectType}, ${entry.subjectId},
            ${json(entry.before)}::jsonb, ${json(entry.after)}::jsonb, ${entry.note ?? null})`);
}

/** The deals service's hook for an operator's deal change (API or CLI): its audit row, written in
 * the change's own transaction, so a refused change leaves none. */
export const auditDealChange =
  (actor: AuditActor, action: "deal.create" | "deal.cancel"): RecordChange<Deal> =>
  (tx, after, before) =>
    appendAudit(tx, { actor, action, subjectType: "deal", subjectId: after.id, before, after });

/** The same for a pending payout marked sent or failed. */
export const auditPayoutChange =
  (actor: AuditActor, action: "payout.sent" | "payout.failed"): RecordChange<Payout> =>
  (tx, after) =>
    appendAudit(tx, {
      actor,
      action,
      subjectType: "payout",
      subjectId: after.id,
      before: { status: "pending" },
      after:
        action === "payout.sent"
          ? { status: after.status, tx_hash: after.tx_hash }
          : { status: after.status },
    });
