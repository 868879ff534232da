import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { createdAt } from "./columns.ts";

/** Per-user routing rules for Intelligence: service 'datacenter' (toggle on) or 'premium'. */
export const routingRules = pgTable(
  "routing_rules",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rule: text("rule").notNull(),
    service: text("service").notNull().default("premium"),
    /** 'learner' (service follows the domain's verdict) or 'user' (the learner only suggests). */
    decidedBy: text("decided_by").notNull().default("learner"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("routing_rules_user_rule_uq").on(t.userId, t.rule)],
);

/** Hostnames a user says they plan to access (Intelligence hints). */
export const hostnameHints = pgTable(
  "hostname_hints",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    hostname: text("hostname").notNull(),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hostname] })],
);

/** The Intelligence learner's verdict per domain, global across users (decision 009):
 * eligible, blocked or unknown, with the evidence it rests on; probing_by/probing_until is the
 * lease of the instance probing it now. */
export const domainVerdicts = pgTable(
  "domain_verdicts",
  {
    domain: text("domain").primaryKey(),
    verdict: text("verdict").notNull().default("unknown"),
    evidence: jsonb("evidence"),
    lastProbeAt: timestamp("last_probe_at", { withTimezone: true }),
    nextProbeAt: timestamp("next_probe_at", { withTimezone: true }).notNull().defaultNow(),
    failedProbes: integer("failed_probes").notNull().default(0),
    probingBy: text("probing_by"),
    probingUntil: timestamp("probing_until", { withTimezone: true }),
    /** The operator's global route for the domain under -routing-smart: datacenter, premium or
     * null (the customers' rules decide). */
    override: text("override"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("domain_verdicts_next_probe_idx").on(t.nextProbeAt),
    check(
      "domain_verdicts_override_check",
      sql`${t.override} IS NULL OR ${t.override} IN ('datacenter', 'premium')`,
    ),
  ],
);

/** Per gateway instance, upstream exit and UTC minute: connect attempts, the exit's own
 * failures, connect times (sum and histogram, decision 018) and relayed bytes. */
export const upstreamStats = pgTable(
  "upstream_stats",
  {
    instanceId: text("instance_id").notNull(),
    pool: text("pool").notNull(),
    upstreamId: text("upstream_id").notNull(),
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    attempts: bigint("attempts", { mode: "number" }).notNull().default(0),
    failures: bigint("failures", { mode: "number" }).notNull().default(0),
    connectMsSum: bigint("connect_ms_sum", { mode: "number" }).notNull().default(0),
    connectMsBuckets: bigint("connect_ms_buckets", { mode: "number" }).array().notNull().default(sql`'{}'`),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ name: "upstream_stats_pk", columns: [t.instanceId, t.pool, t.upstreamId, t.minute] }),
    index("upstream_stats_minute_idx").on(t.minute),
  ],
);

/** Refusals per gateway instance, UTC minute and reason (added every few seconds; 90 days kept). */
export const refusalStats = pgTable(
  "refusal_stats",
  {
    instanceId: text("instance_id").notNull(),
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    reason: text("reason").notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ name: "refusal_stats_pk", columns: [t.instanceId, t.minute, t.reason] }),
    index("refusal_stats_minute_idx").on(t.minute),
  ],
);

/** Requests served (plain HTTP requests and CONNECT tunnels) per gateway instance and UTC minute:
 * with refusal_stats, the refusal rate. */
export const servedStats = pgTable(
  "served_stats",
  {
    instanceId: text("instance_id").notNull(),
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ name: "served_stats_pk", columns: [t.instanceId, t.minute] }),
    index("served_stats_minute_idx").on(t.minute),
  ],
);

/** Each gateway instance's heartbeat (every few seconds): its live figures and its view of the
 * upstream exits. Older than a minute: the instance is gone. */
export const gatewayInstances = pgTable("gateway_instances", {
  instanceId: text("instance_id").primaryKey(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  liveConnections: integer("live_connections").notNull().default(0),
  bytesPerSecond: doublePrecision("bytes_per_second").notNull().default(0),
  flushLagSeconds: doublePrecision("flush_lag_seconds").notNull().default(0),
  refusals: jsonb("refusals").notNull().default(sql`'{}'::jsonb`),
  upstreams: jsonb("upstreams").notNull().default(sql`'[]'::jsonb`),
});

/** How the gateway's connections to a domain ended, per proxy type and UTC minute. */
export const domainOutcomes = pgTable(
  "domain_outcomes",
  {
    domain: text("domain").notNull(),
    proxyType: text("proxy_type").notNull(),
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    connections: bigint("connections", { mode: "number" }).notNull().default(0),
    dialFailures: bigint("dial_failures", { mode: "number" }).notNull().default(0),
    resets: bigint("resets", { mode: "number" }).notNull().default(0),
    tlsCut: bigint("tls_cut", { mode: "number" }).notNull().default(0),
    blockedStatuses: bigint("blocked_statuses", { mode: "number" }).notNull().default(0),
    /** The user whose traffic it was ('' for rows from before attribution, decision 025). */
    account: text("account").notNull().default(""),
  },
  (t) => [
    primaryKey({ name: "domain_outcomes_pk", columns: [t.domain, t.minute, t.proxyType, t.account] }),
    index("domain_outcomes_minute_idx").on(t.minute),
  ],
);

/** The learner's probes of the last hour, each with the account it was made for ('' : its own
 * schedule): accounts take turns and have a cap per hour (decision 025). */
export const learnerProbeLog = pgTable(
  "learner_probe_log",
  {
    account: text("account").notNull(),
    domain: text("domain").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("learner_probe_log_account_idx").on(t.account, t.at)],
);
