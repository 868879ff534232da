import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  cidr,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/** A customer account. `balance_bytes` is premium (mobile) data in bytes; it only ever changes
 * together with a ledger entry (see ledger_entries). */
export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull().unique(),
  refundAddress: text("refund_address"),
  balanceBytes: bigint("balance_bytes", { mode: "number" }).notNull().default(0),
  /** Sum of this user's balance_leases: bytes gateway instances reserved and may still relay.
   * A reservation, not a ledger entry: the balance is unchanged until usage is debited. */
  leasedBytes: bigint("leased_bytes", { mode: "number" }).notNull().default(0),
  /** Below this balance the customer gets one e-mail; null = off. */
  lowBalanceThresholdBytes: bigint("low_balance_threshold_bytes", { mode: "number" }).default(1_000_000_000),
  /** Set when that e-mail went out (and on a new account, which has crossed nothing yet); cleared
   * once the balance is at or above the threshold, which arms the next e-mail. */
  lowBalanceNotifiedAt: timestamp("low_balance_notified_at", { withTimezone: true }).defaultNow(),
  /** Set by an operator: the API answers 403 and the gateway refuses the account's traffic. */
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
  /** Set when balance.exhausted was raised for the current time at or below zero (webhooks). */
  balanceExhaustedAt: timestamp("balance_exhausted_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/** Signed-in sessions; the app JWT carries the session id so logout can revoke it. */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Magic-link tokens: only the SHA-256 of the token is stored; single use, short-lived. */
export const loginTokens = pgTable(
  "login_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenHash: text("token_hash").notNull().unique(),
    email: text("email").notNull(),
    /** What the per-e-mail link limit counts by: the address without plus tag or trailing dot. */
    limitKey: text("limit_key").notNull(),
    /** The account, when it existed at request time; a new one is created only when the link is
     * followed (that proves the address). */
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    orderId: text("order_id"),
    /** The deal the login request named; its order is made when the link is followed. */
    dealId: integer("deal_id"),
    /** The order the login request asked for (whole USD), made when the link is followed. */
    purchaseAmountUsd: integer("purchase_amount_usd"),
    requestIp: text("request_ip"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    /** An anonymous proxy credential set (prefilled at sign-up) to attach to the account only once
     * this link has proved the e-mail — never before, or anyone could attach one to a stranger. */
    claimCredentialId: uuid("claim_credential_id").references(() => proxyCredentials.id, {
      onDelete: "set null",
    }),
  },
  (t) => [index("login_tokens_limit_key_created_idx").on(t.limitKey, t.createdAt)],
);

/** The dev outbox: e-mails that would have been sent when no SMTP_URL is configured. */
export const outboxMessages = pgTable("outbox_messages", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html"),
  link: text("link"),
  createdAt: createdAt(),
});

/** Append-only ledger. Every balance change is one entry, unique per (kind, reference), written
 * by the same SQL statement that changes users.balance_bytes: replaying an event changes nothing. */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(), // purchase | bonus | usage | deposit | refund | chargeback | adjustment
    reference: text("reference").notNull(),
    deltaBytes: bigint("delta_bytes", { mode: "number" }).notNull(),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ledger_kind_reference_uq").on(t.kind, t.reference),
    index("ledger_user_idx").on(t.userId, t.createdAt),
    // Migration 0027: a known kind, and the sign that kind requires (adjustments may go either way).
    check(
      "ledger_kind_check",
      sql`${t.kind} IN ('purchase', 'bonus', 'usage', 'deposit', 'refund', 'chargeback', 'adjustment')`,
    ),
    check(
      "ledger_sign_check",
      sql`CASE WHEN ${t.kind} IN ('purchase', 'bonus', 'deposit') THEN ${t.deltaBytes} > 0 WHEN ${t.kind} IN ('usage', 'refund', 'chargeback') THEN ${t.deltaBytes} < 0 ELSE true END`,
    ),
  ],
);

/** Proxy credentials. One set per account; anonymous sets (user_id null) can be claimed at
 * sign-up. The password is kept encrypted (to show it on /connect) and hashed (to check it). */
export const proxyCredentials = pgTable(
  "proxy_credentials",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    username: text("username").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    passwordEnc: text("password_enc").notNull(),
    useSticky: boolean("use_sticky").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("proxy_credentials_user_uq").on(t.userId)],
);

/** The usage rows of an account's own credentials carry this sub-user id (migration 0023). */
export const NO_SUBUSER = "00000000-0000-0000-0000-000000000000";

/** Sub-users (migration 0023): more proxy credentials of one account, each with its own limit of
 * relayed bytes per period. Usernames share proxy_credentials' namespace (triggers refuse a name
 * the other table holds); used_bytes counts the period that began on period_start, leased_bytes
 * the allowance gateway instances reserved (subuser_leases). */
export const subusers = pgTable(
  "subusers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    username: text("username").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    passwordEnc: text("password_enc").notNull(),
    limitBytes: bigint("limit_bytes", { mode: "number" }),
    limitPeriod: text("limit_period").notNull().default("total"), // day | week | month | total
    enabled: boolean("enabled").notNull().default(true),
    periodStart: date("period_start", { mode: "string" }).notNull().default("1970-01-01"),
    usedBytes: bigint("used_bytes", { mode: "number" }).notNull().default(0),
    leasedBytes: bigint("leased_bytes", { mode: "number" }).notNull().default(0),
    limitNotifiedPeriod: date("limit_notified_period", { mode: "string" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("subusers_user_label_uq").on(t.userId, t.label)],
);

/** What one gateway instance reserved of a sub-user's allowance (as balance_leases of a balance). */
export const subuserLeases = pgTable(
  "subuser_leases",
  {
    instanceId: text("instance_id").notNull(),
    subuserId: uuid("subuser_id")
      .notNull()
      .references(() => subusers.id, { onDelete: "cascade" }),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.instanceId, t.subuserId] }),
    index("subuser_leases_expires_at_idx").on(t.expiresAt),
  ],
);

/** Personal API tokens: looked up by hash, shown again from the encrypted copy. */
export const apiTokens = pgTable("api_tokens", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  tokenEnc: text("token_enc").notNull(),
  createdAt: createdAt(),
});

/** Addresses and ranges admitted without credentials as their account (migration 0024; its
 * exclusion constraint keeps any two entries from overlapping, which Drizzle cannot express). */
export const ipAllowlist = pgTable(
  "ip_allowlist",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    range: cidr("range").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("ip_allowlist_user_idx").on(table.userId)],
);

/** Usage rollups written by the gateway's flush, one row per (user, UTC day, domain, type). */
export const usageRollups = pgTable(
  "usage_rollups",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    domain: text("domain").notNull(),
    proxyType: text("proxy_type").notNull(), // mobile | dc
    /** The sub-user whose traffic it was; NO_SUBUSER for the owner's own credentials. */
    subuserId: uuid("subuser_id").notNull().default(NO_SUBUSER),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
    requests: bigint("requests", { mode: "number" }).notNull().default(0),
  },
  // The primary key's leading (user_id, day) is the usage API's range; the covering index of
  // migration 0003 was superseded by the trigger-kept totals (0005) and dropped in 0006, so the
  // gateway's upserts stay HOT updates (decision 005).
  (t) => [primaryKey({ columns: [t.userId, t.day, t.domain, t.proxyType, t.subuserId] })],
);

/** Flush batches already applied; a retried batch with the same id is a no-op. */
export const usageBatches = pgTable("usage_batches", {
  id: text("id").primaryKey(),
  createdAt: createdAt(),
});

/** Byte leases (decision 007): what one gateway instance reserved of a user's balance. Every
 * change moves users.leased_bytes by the same amount in the same statement; a lease not renewed
 * by expires_at (its instance crashed) is reclaimed by any instance. */
export const balanceLeases = pgTable(
  "balance_leases",
  {
    instanceId: text("instance_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.instanceId, t.userId] }),
    index("balance_leases_expires_at_idx").on(t.expiresAt),
  ],
);

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

/** Generic key/value for small operator-visible settings (e.g. generated secrets). */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().default(sql`now()`),
});

/** Top-up orders (decision 003). Money is integer cents, data integer bytes. `credited_bytes` is
 * how much of `bytes` has reached the ledger: the credit moves it forward with a conditional
 * UPDATE in the same transaction as the ledger entry, so replays and races credit once. */
export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    method: text("method").notNull(), // crypto | card
    networkType: text("network_type"), // solana | polygon | base | ethereum
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    paymentStatus: text("payment_status").notNull().default("waiting"),
    provider: text("provider").notNull(), // sandbox | nowpayments | stripe
    providerPaymentId: text("provider_payment_id"),
    payAddress: text("pay_address"),
    qrCode: text("qr_code"),
    priceAmountCents: bigint("price_amount_cents", { mode: "number" }),
    paymentToken: text("payment_token"),
    payinHash: text("payin_hash"),
    creditedBytes: bigint("credited_bytes", { mode: "number" }).notNull().default(0),
    /** How much of credited_bytes a refund or chargeback has taken back (≤ credited_bytes). */
    reversedBytes: bigint("reversed_bytes", { mode: "number" }).notNull().default(0),
    balanceBytesAfter: bigint("balance_bytes_after", { mode: "number" }),
    stripeSessionId: text("stripe_session_id"),
    stripeRedirectUrl: text("stripe_redirect_url"),
    /** The session's payment intent, stored when it is credited: refunds and disputes name it. */
    stripePaymentIntent: text("stripe_payment_intent"),
    dealId: text("deal_id"),
    quantity: integer("quantity"),
    note: text("note"),
    /** `checkout` (the customer's) or `auto_topup` (charged to the saved card, migration 0029). */
    origin: text("origin").notNull().default("checkout"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
  },
  (t) => [
    // The history page, newest first with a unique tie-breaker, straight from the index.
    index("orders_user_created_id_idx").on(t.userId, t.createdAt, t.id),
    uniqueIndex("orders_provider_payment_uq").on(t.provider, t.providerPaymentId),
    uniqueIndex("orders_stripe_session_uq").on(t.stripeSessionId),
    uniqueIndex("orders_stripe_payment_intent_uq").on(t.stripePaymentIntent),
    index("orders_waiting_expiry_idx").on(t.expiresAt).where(sql`payment_status = 'waiting'`),
    // Migration 0027: known values, no negative amounts, credited ≤ bought, reversed ≤ credited.
    check(
      "orders_status_check",
      sql`${t.paymentStatus} IN ('waiting', 'paid', 'partially_paid', 'failed', 'expired', 'refunded', 'cancelled')`,
    ),
    check("orders_method_check", sql`${t.method} IN ('crypto', 'card')`),
    check("orders_provider_check", sql`${t.provider} IN ('sandbox', 'nowpayments', 'stripe')`),
    check(
      "orders_network_check",
      sql`${t.networkType} IS NULL OR ${t.networkType} IN ('solana', 'polygon', 'base', 'ethereum')`,
    ),
    check(
      "orders_amounts_check",
      sql`${t.amountCents} >= 0 AND ${t.bytes} >= 0 AND (${t.priceAmountCents} IS NULL OR ${t.priceAmountCents} >= 0) AND (${t.quantity} IS NULL OR ${t.quantity} > 0)`,
    ),
    check("orders_credited_check", sql`${t.creditedBytes} >= 0 AND ${t.creditedBytes} <= ${t.bytes}`),
    check("orders_reversed_check", sql`${t.reversedBytes} >= 0 AND ${t.reversedBytes} <= ${t.creditedBytes}`),
    check("orders_origin_check", sql`${t.origin} IN ('checkout', 'auto_topup')`),
    index("orders_auto_topup_idx").on(t.userId, t.createdAt).where(sql`origin = 'auto_topup'`),
  ],
);

/** Stripe webhook events already handled: a redelivered event id is a no-op. */
export const stripeEvents = pgTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  createdAt: createdAt(),
});

/** Signed provider callbacks that were not credited because they do not match their order (another
 * session, another amount or currency): kept with the reason, once per (provider, reference, reason). */
export const paymentRejections = pgTable(
  "payment_rejections",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    reference: text("reference").notNull(),
    reason: text("reason").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payment_rejections_reference_uq").on(t.provider, t.reference, t.reason),
    index("payment_rejections_order_idx").on(t.orderId),
  ],
);

/** Signed, verified provider callbacks that concern an order, one row each, written in the
 * transaction that acts on them (the operator's order page lists them). summary holds amounts and
 * currencies only, never a signature or the provider's payload. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    eventType: text("event_type").notNull(),
    providerReference: text("provider_reference").notNull(),
    outcome: text("outcome").notNull(),
    summary: jsonb("summary").notNull().default(sql`'{}'::jsonb`),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payment_events_order_received_idx").on(t.orderId, t.receivedAt)],
);

/** Per-day totals of usage_rollups by proxy type, kept by statement triggers on usage_rollups
 * (migration 0005): the usage API's "by day" and "by proxy type" read ≤ 2 rows per day instead
 * of every domain's row (decision 005). Never written by application code. */
export const usageDailyTotals = pgTable(
  "usage_daily_totals",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    proxyType: text("proxy_type").notNull(),
    subuserId: uuid("subuser_id").notNull().default(NO_SUBUSER),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
    requests: bigint("requests", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.proxyType, t.subuserId] })],
);

/** Per-ISO-week (Monday) totals of usage_rollups by domain and proxy type, kept by the same
 * triggers: "by domain" over whole weeks reads one row per domain-week instead of one per
 * domain-day, and only the partial weeks at the window's edges from usage_rollups. */
export const usageWeeklyDomains = pgTable(
  "usage_weekly_domains",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    week: date("week", { mode: "string" }).notNull(),
    domain: text("domain").notNull(),
    proxyType: text("proxy_type").notNull(),
    subuserId: uuid("subuser_id").notNull().default(NO_SUBUSER),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
    requests: bigint("requests", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.week, t.domain, t.proxyType, t.subuserId] })],
);

/** Deals (migration 0014): flash sales and group buys. Every status move is one conditional UPDATE
 * of the row, and everything that moves a deal's stock or money locks the row first. */
export const deals = pgTable(
  "deals",
  {
    id: serial("id").primaryKey(),
    dealType: text("deal_type").notNull(), // flash_sale | group_buy
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    priceUsdPerGb: numeric("price_usd_per_gb", { precision: 12, scale: 4 }).notNull(),
    status: text("status").notNull().default("pending"), // pending | live | activated | expired | cancelled
    startTime: timestamp("start_time", { withTimezone: true }).notNull(),
    endTime: timestamp("end_time", { withTimezone: true }).notNull(),
    targetGb: bigint("target_gb", { mode: "number" }).notNull(),
    /** A flash sale's stock reserved by open orders or sold. */
    reservedGb: bigint("reserved_gb", { mode: "number" }).notNull().default(0),
    /** A group buy's paid deposits counting towards its target (held, or credited at activation). */
    depositedCents: bigint("deposited_cents", { mode: "number" }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("deals_status_end_idx").on(t.status, t.endTime),
    check("deals_type_check", sql`${t.dealType} IN ('flash_sale', 'group_buy')`),
    check("deals_status_check", sql`${t.status} IN ('pending', 'live', 'activated', 'expired', 'cancelled')`),
    check("deals_price_check", sql`${t.priceUsdPerGb} > 0`),
    check("deals_target_check", sql`${t.targetGb} > 0`),
    check("deals_window_check", sql`${t.endTime} > ${t.startTime}`),
    check("deals_reserved_check", sql`${t.reservedGb} >= 0`),
    check("deals_deposited_check", sql`${t.depositedCents} >= 0`),
  ],
);

/** A flash-sale order's stock: taken at order creation, given back once when it ends unpaid. */
export const dealReservations = pgTable(
  "deal_reservations",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    dealId: integer("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    gb: bigint("gb", { mode: "number" }).notNull(),
    released: boolean("released").notNull().default(false),
  },
  (t) => [index("deal_reservations_open_idx").on(t.dealId).where(sql`released = false`)],
);

/** Payouts the operator executes (pending → sent with a transaction hash, or failed). */
export const payouts = pgTable(
  "payouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    dealId: integer("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(), // withdrawal | refund
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    walletAddress: text("wallet_address").notNull(),
    status: text("status").notNull().default("pending"), // pending | sent | failed
    txHash: text("tx_hash"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("payouts_status_created_idx").on(t.status, t.createdAt),
    index("payouts_user_idx").on(t.userId, t.createdAt),
    check("payouts_kind_check", sql`${t.kind} IN ('withdrawal', 'refund')`),
    check("payouts_status_check", sql`${t.status} IN ('pending', 'sent', 'failed')`),
    check("payouts_amount_check", sql`${t.amountCents} > 0`),
  ],
);

/** A group buy's paid deposit, in exactly one state: held (counts towards the target), credited
 * (its GB reached the ledger at activation), refundable (the deal ended unmet and its owner has
 * no refund address yet), paid_out (a pending or sent payout carries it) or reversed (the payment
 * provider gave all of it back). amount_cents is what it still holds, refunded_cents what the
 * provider gave back (migration 0020): together, what was paid. */
export const dealDeposits = pgTable(
  "deal_deposits",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    dealId: integer("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    refundedCents: bigint("refunded_cents", { mode: "number" }).notNull().default(0),
    status: text("status").notNull().default("held"),
    payoutId: uuid("payout_id").references(() => payouts.id),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("deal_deposits_deal_status_idx").on(t.dealId, t.status),
    index("deal_deposits_user_deal_idx").on(t.userId, t.dealId),
    check(
      "deal_deposits_status_check",
      sql`${t.status} IN ('held', 'credited', 'refundable', 'paid_out', 'reversed')`,
    ),
    check(
      "deal_deposits_amount_check",
      sql`${t.amountCents} >= 0 AND ${t.refundedCents} >= 0 AND (${t.amountCents} > 0 OR ${t.status} = 'reversed')`,
    ),
  ],
);

/** Every operator action, append-only (the database refuses UPDATE, DELETE and TRUNCATE): who did what to
 * which subject, with the state before and after. */
export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** The operator's e-mail, or "admin-token" / "cli" for scripts. */
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    index("admin_audit_log_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("admin_audit_log_subject_idx").on(t.subjectType, t.subjectId),
  ],
);

/** A customer's webhook endpoints (at most 5 each); the secret is sealed with the app secret. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    secretEnc: text("secret_enc").notNull(),
    secretLast4: text("secret_last4").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId)],
);

/** Events raised for an account; the dedupe key makes a replayed cause raise nothing new. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    dedupeKey: text("dedupe_key").notNull(),
    data: jsonb("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("webhook_events_dedupe_uq").on(t.userId, t.dedupeKey)],
);

/** One delivery per event and endpoint, claimed by one instance at a time and retried from here. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    claim: uuid("claim"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_once_uq").on(t.eventId, t.endpointId),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
    check("webhook_deliveries_status_check", sql`${t.status} IN ('pending', 'delivered', 'failed')`),
  ],
);

/** Auto top-up by card (migration 0029): the settings, the saved card and the crossing flag that
 * lets exactly one instance top up per fall below the threshold. */
export const autoTopups = pgTable(
  "auto_topups",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(false),
    thresholdBytes: bigint("threshold_bytes", { mode: "number" }).notNull().default(1_000_000_000),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull().default(5000),
    monthlyCapCents: bigint("monthly_cap_cents", { mode: "number" }).notNull().default(50_000),
    cardProvider: text("card_provider"),
    providerCustomerId: text("provider_customer_id"),
    providerMethodId: text("provider_method_id"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    setupId: uuid("setup_id"),
    setupSessionId: text("setup_session_id"),
    setupStartedAt: timestamp("setup_started_at", { withTimezone: true }),
    /** Set once this fall below the threshold was handled; cleared at or above it (re-armed). */
    crossedAt: timestamp("crossed_at", { withTimezone: true }),
    failures: integer("failures").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("auto_topups_setup_uq").on(t.setupId),
    uniqueIndex("auto_topups_setup_session_uq").on(t.setupSessionId),
    check(
      "auto_topups_amounts_check",
      sql`${t.thresholdBytes} > 0 AND ${t.amountCents} > 0 AND ${t.monthlyCapCents} >= ${t.amountCents}`,
    ),
    check(
      "auto_topups_provider_check",
      sql`${t.cardProvider} IS NULL OR ${t.cardProvider} IN ('sandbox', 'stripe')`,
    ),
    check("auto_topups_enabled_card_check", sql`NOT ${t.enabled} OR ${t.providerMethodId} IS NOT NULL`),
    check("auto_topups_failures_check", sql`${t.failures} >= 0`),
  ],
);
