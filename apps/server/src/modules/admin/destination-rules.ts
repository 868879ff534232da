import {
  type CreateDestinationRule,
  DESTINATION_RULE_NEEDS_TARGET,
  type DestinationRule,
  MAX_DESTINATION_RULES,
  type UpdateDestinationRule,
} from "@bytetoll/contracts";
import type { Database, SqlExecutor } from "@bytetoll/db";
import { sql } from "drizzle-orm";
import { AppError, notFound } from "../../errors.ts";
import { accountEmailsIn, accountExists } from "../auth/index.ts";
import { appendAudit } from "./audit.ts";

type RuleRow = {
  id: string | number;
  action: DestinationRule["action"];
  domain: string | null;
  ports: string | null;
  customer_id: string | null;
  reason: string;
  created_at: Date | string;
};

/** The columns the API shows; the customer's e-mail comes from the auth module (withEmails). */
const SELECT = sql`SELECT r.id, r.action, r.domain, r.ports, r.customer_id::text AS customer_id,
  r.reason, r.created_at FROM destination_rules r`;

/** The rules as the API shows them, each with its customer's e-mail, read in the same transaction. */
async function withEmails(tx: SqlExecutor, rows: RuleRow[]): Promise<DestinationRule[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.customer_id ? [row.customer_id] : [])))];
  const emails = await accountEmailsIn(tx, ids);
  return rows.map((row) => ({
    id: Number(row.id),
    action: row.action,
    domain: row.domain,
    ports: row.ports,
    customer_id: row.customer_id,
    customer_email: row.customer_id ? (emails.get(row.customer_id) ?? null) : null,
    reason: row.reason,
    created_at: new Date(row.created_at).toISOString(),
  }));
}

const ACTION_ORDER = ["block", "report", "allow"];
/** The order the gateway reads rules in: customers' rules (by e-mail), then the global ones;
 * within each, domain rules before port-only ones, then block, report, allow, then by id. */
function gatewayOrder(a: DestinationRule, b: DestinationRule): number {
  const rank = (rule: DestinationRule) => [
    rule.customer_id === null ? 1 : 0,
    rule.domain === null ? 1 : 0,
    ACTION_ORDER.indexOf(rule.action),
    rule.id,
  ];
  const byEmail = (a.customer_email ?? "").localeCompare(b.customer_email ?? "");
  const [ra, rb] = [rank(a), rank(b)];
  if (ra[0] !== rb[0]) return (ra[0] as number) - (rb[0] as number);
  if (byEmail !== 0) return byEmail;
  for (let i = 1; i < ra.length; i++) if (ra[i] !== rb[i]) return (ra[i] as number) - (rb[i] as number);
  return 0;
}

/** What the audit log keeps of a rule. */
const audited = ({ action, domain, ports, customer_id, reason }: DestinationRule) => ({
  action,
  domain,
  ports,
  customer_id,
  reason,
});

const ruleNotFound = () => notFound("Destination rule not found");

async function readRule(tx: SqlExecutor, id: number): Promise<DestinationRule> {
  const result = await tx.execute<RuleRow>(sql`${SELECT} WHERE r.id = ${id}`);
  const [rule] = await withEmails(tx, result.rows);
  if (!rule) throw ruleNotFound();
  return rule;
}

async function checkCustomer(tx: SqlExecutor, customerId: string | null): Promise<void> {
  if (customerId === null) return;
  if (!(await accountExists(tx, customerId)))
    throw new AppError(400, "customer_id: no customer has this id", "bad_request");
}

/**
 * The operator's destination rules (docs/product.md#destination-policy). Each change commits
 * with its audit row; the table's trigger announces it on the change feed, so every gateway reads
 * the rules again within moments.
 */
export function createDestinationRulesService({ db }: Database) {
  return {
    /** In the order the gateway reads them: customers' rules, then the global ones. */
    async list(): Promise<DestinationRule[]> {
      const result = await db.execute<RuleRow>(SELECT);
      return (await withEmails(db, result.rows)).sort(gatewayOrder);
    },

    async create(actor: string, body: CreateDestinationRule): Promise<DestinationRule> {
      return db.transaction(async (tx) => {
        await checkCustomer(tx, body.customer_id);
        await tx.execute(sql`LOCK TABLE destination_rules IN SHARE ROW EXCLUSIVE MODE`);
        const counted = await tx.execute<{ count: string | number }>(
          sql`SELECT count(*) AS count FROM destination_rules`,
        );
        if (Number(counted.rows[0]?.count ?? 0) >= MAX_DESTINATION_RULES)
          throw new AppError(
            409,
            `At most ${MAX_DESTINATION_RULES} destination rules can be kept`,
            "rule_limit",
          );
        const inserted = await tx.execute<{ id: string | number }>(sql`
          INSERT INTO destination_rules (action, domain, ports, customer_id, reason)
          VALUES (${body.action}, ${body.domain}, ${body.ports}, ${body.customer_id}, ${body.reason})
          RETURNING id`);
        const rule = await readRule(tx, Number(inserted.rows[0]?.id));
        await appendAudit(tx, {
          actor,
          action: "destination_rule.create",
          subjectType: "destination_rule",
          subjectId: String(rule.id),
          after: audited(rule),
        });
        return rule;
      });
    },

    async update(actor: string, id: number, body: UpdateDestinationRule): Promise<DestinationRule> {
      return db.transaction(async (tx) => {
        const locked = await tx.execute(sql`SELECT 1 FROM destination_rules WHERE id = ${id} FOR UPDATE`);
        if (locked.rows.length === 0) throw ruleNotFound();
        const before = await readRule(tx, id);
        const next = { ...before, ...body };
        if (next.domain === null && next.ports === null)
          throw new AppError(400, `domain: ${DESTINATION_RULE_NEEDS_TARGET}`, "bad_request");
        if (body.customer_id !== undefined) await checkCustomer(tx, body.customer_id);
        await tx.execute(sql`
          UPDATE destination_rules SET action = ${next.action}, domain = ${next.domain}, ports = ${next.ports},
                 customer_id = ${next.customer_id}, reason = ${next.reason}
           WHERE id = ${id}`);
        const after = await readRule(tx, id);
        await appendAudit(tx, {
          actor,
          action: "destination_rule.update",
          subjectType: "destination_rule",
          subjectId: String(id),
          before: audited(before),
          after: audited(after),
        });
        return after;
      });
    },

    async remove(actor: string, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const locked = await tx.execute(sql`SELECT 1 FROM destination_rules WHERE id = ${id} FOR UPDATE`);
        if (locked.rows.length === 0) throw ruleNotFound();
        const before = await readRule(tx, id);
        await tx.execute(sql`DELETE FROM destination_rules WHERE id = ${id}`);
        await appendAudit(tx, {
          actor,
          action: "destination_rule.delete",
          subjectType: "destination_rule",
          subjectId: String(id),
          before: audited(before),
        });
      });
    },
  };
}
