import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";

/** Exits managed in the console (migration 0039): the password sealed, never stored in clear. */
export const upstreams = pgTable(
  "upstreams",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    pool: text("pool").notNull(),
    urlPublic: text("url_public").notNull(),
    passwordSealed: text("password_sealed"),
    countries: text("countries").array().notNull().default(sql`'{}'`),
    costPerGbMicros: bigint("cost_per_gb_micros", { mode: "number" }).notNull(),
    weight: integer("weight").notNull().default(1),
    monthlyBudgetBytes: bigint("monthly_budget_bytes", { mode: "number" }),
    enabled: boolean("enabled").notNull().default(true),
    budgetMailMonth: date("budget_mail_month"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("upstreams_name_unique").on(t.name),
    check("upstreams_pool_check", sql`${t.pool} IN ('mobile', 'datacenter')`),
    check("upstreams_cost_check", sql`${t.costPerGbMicros} >= 0`),
    check("upstreams_weight_check", sql`${t.weight} BETWEEN 1 AND 100`),
    check("upstreams_budget_check", sql`${t.monthlyBudgetBytes} IS NULL OR ${t.monthlyBudgetBytes} > 0`),
  ],
);

/** Bytes each exit carried per UTC day and customer, at the exit's cost and the tariff's price
 * in force then (both in the key). Written in the usage flush's transaction. */
export const upstreamUsage = pgTable(
  "upstream_usage",
  {
    day: date("day").notNull(),
    upstreamKey: text("upstream_key").notNull(),
    upstreamName: text("upstream_name").notNull(),
    pool: text("pool").notNull(),
    userId: uuid("user_id").notNull(),
    proxyType: text("proxy_type").notNull(),
    costPerGbMicros: bigint("cost_per_gb_micros", { mode: "number" }).notNull(),
    pricePerGbMicros: bigint("price_per_gb_micros", { mode: "number" }).notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({
      name: "upstream_usage_pk",
      columns: [t.day, t.upstreamKey, t.userId, t.proxyType, t.costPerGbMicros, t.pricePerGbMicros],
    }),
    index("upstream_usage_key_day_idx").on(t.upstreamKey, t.day),
  ],
);
