import { bigint, bigserial, date, index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { createdAt } from "./columns.ts";

/** The operator's destination rules (migration 0038, docs/product.md#destination-policy): block,
 * allow or report traffic to a domain and/or ports, for everyone (customer_id null) or one
 * customer. A CHECK keeps at least one of domain and ports set. */
export const destinationRules = pgTable(
  "destination_rules",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    action: text("action").notNull(), // block | allow | report
    domain: text("domain"),
    ports: text("ports"),
    customerId: uuid("customer_id").references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("destination_rules_customer_idx").on(t.customerId)],
);

/** What report rules let through (migration 0038): hits per rule, UTC day, credential (the
 * owner's own: NO_SUBUSER) and target name, added by every gateway's flush. */
export const destinationReportHits = pgTable(
  "destination_report_hits",
  {
    ruleId: bigint("rule_id", { mode: "number" }).notNull(),
    day: date("day", { mode: "string" }).notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subuserId: uuid("subuser_id").notNull(),
    domain: text("domain").notNull(),
    hits: bigint("hits", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({
      name: "destination_report_hits_pk",
      columns: [t.ruleId, t.day, t.userId, t.subuserId, t.domain],
    }),
    index("destination_report_hits_domain_day").on(t.domain, t.day),
  ],
);
