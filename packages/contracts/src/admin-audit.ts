import { z } from "zod";
import { adminPaging } from "./admin.ts";

/** GET /admin/audit?actor=&action=&subject=&page=&per_page= — every operator action, newest
 * first. `actor` is exact (an e-mail, "admin-token" or "cli"), `action` exact
 * (e.g. "customer.disable"), `subject` a subject id (an account, order, deal or payout id). */

export const auditQuery = z
  .object({
    ...adminPaging,
    actor: z.string().trim().min(1).max(254, "actor must be at most 254 characters").optional(),
    action: z.string().trim().min(1).max(64, "action must be at most 64 characters").optional(),
    subject: z.string().trim().min(1).max(128, "subject must be at most 128 characters").optional(),
  })
  .strict();
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditEntry = z.object({
  id: z.number(),
  actor: z.string(),
  action: z.string(),
  /** "account" | "order" | "deal" | "payout". */
  subject_type: z.string(),
  subject_id: z.string(),
  /** The subject as people know it: an account's or payout's customer e-mail, an order's
   * customer e-mail, a deal's title; null when it no longer exists. */
  subject_label: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditPage = z.object({
  success: z.literal(true),
  data: z.array(auditEntry),
  page: z.number(),
  per_page: z.number(),
  total: z.number(),
});
export type AuditPage = z.infer<typeof auditPage>;
