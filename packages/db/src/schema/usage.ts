import {
  bigint,
  date,
  index,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { NO_SUBUSER, users } from "./accounts.ts";
import { createdAt } from "./columns.ts";

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

/** Per-domain totals of usage_rollups over spans of 1, 7 and 28 days counted from Monday
 * 1970-01-05 (usage_span_start), the proxy types as columns, once per credential and once under
 * ALL_SUBUSERS for all of them; kept by the same triggers (migration 0030). "By domain" adds and
 * takes away a few span ranges instead of summing every domain-day (decision 032). */
export const usageDomainTotals = pgTable(
  "usage_domain_totals",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subuserId: uuid("subuser_id").notNull(),
    span: smallint("span").notNull(),
    start: date("start", { mode: "string" }).notNull(),
    domain: text("domain").notNull(),
    mobileBytes: bigint("mobile_bytes", { mode: "number" }).notNull().default(0),
    dcBytes: bigint("dc_bytes", { mode: "number" }).notNull().default(0),
    mobileRequests: bigint("mobile_requests", { mode: "number" }).notNull().default(0),
    dcRequests: bigint("dc_requests", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({
      name: "usage_domain_totals_pk",
      columns: [t.userId, t.subuserId, t.span, t.start, t.domain],
    }),
  ],
);
