import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  cidr,
  date,
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
import { createdAt } from "./columns.ts";

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
    /** The account this session acts on, null for the user's own (migration 0034). */
    accountId: uuid("account_id").references(() => users.id, { onDelete: "cascade" }),
    /** The member's role on that account, copied when the session opens and kept in step. */
    role: text("role").notNull().default("owner"),
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

/** usage_domain_totals keeps each domain's sum over every credential under this id (migration
 * 0030): the max uuid, which no generated sub-user id can be. */
export const ALL_SUBUSERS = "ffffffff-ffff-ffff-ffff-ffffffffffff";

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
    /** The sites it may reach (migration 0038); null: whatever its account may. */
    allowedDomains: text("allowed_domains").array(),
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
    /** Null while the entry waits to be proven from an address it holds; only proven entries admit. */
    provenAt: timestamp("proven_at", { withTimezone: true }),
    proofToken: text("proof_token"),
    proofExpiresAt: timestamp("proof_expires_at", { withTimezone: true }),
  },
  (table) => [
    index("ip_allowlist_user_idx").on(table.userId),
    uniqueIndex("ip_allowlist_proven_range").on(table.range).where(sql`${table.provenAt} IS NOT NULL`),
    uniqueIndex("ip_allowlist_proof_token").on(table.proofToken).where(sql`${table.proofToken} IS NOT NULL`),
  ],
);

/** Generic key/value for small operator-visible settings (e.g. generated secrets). */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().default(sql`now()`),
});
