import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";

/** Background work: one row per recurring job, one per queued piece of work (decision 036). */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    name: text("name").notNull(),
    key: text("key").notNull().default(sql`gen_random_uuid()::text`),
    everyMs: integer("every_ms"),
    payload: jsonb("payload").notNull().default({}),
    status: text("status").notNull().default("queued"),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    rerun: boolean("rerun").notNull().default(false),
    claim: uuid("claim"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("jobs_live_key_uq").on(t.name, t.key).where(sql`${t.status} <> 'dead'`),
    index("jobs_due_idx").on(t.runAt).where(sql`${t.status} <> 'dead'`),
    check("jobs_status_check", sql`${t.status} IN ('queued', 'running', 'dead')`),
    check("jobs_every_check", sql`${t.everyMs} IS NULL OR ${t.everyMs} > 0`),
    check(
      "jobs_claim_check",
      sql`(${t.status} = 'running') = (${t.claim} IS NOT NULL AND ${t.lockedUntil} IS NOT NULL)`,
    ),
  ],
);

/** Each job's runs and failed runs, and its last run, for the operator's Overview. */
export const jobStats = pgTable("job_stats", {
  name: text("name").primaryKey(),
  runs: bigint("runs", { mode: "number" }).notNull().default(0),
  failures: bigint("failures", { mode: "number" }).notNull().default(0),
  lastStartedAt: timestamp("last_started_at", { withTimezone: true }),
  lastFinishedAt: timestamp("last_finished_at", { withTimezone: true }),
  lastError: text("last_error"),
});
