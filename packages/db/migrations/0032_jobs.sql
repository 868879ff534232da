-- Background work as rows (decision 036). A recurring job is one row per name (key 'every') that
-- goes back to `queued` with the next run_at after each run; a queued job is one row per piece of
-- work, deleted when done. An instance claims due rows with FOR UPDATE SKIP LOCKED and holds them
-- under a lease (`claim`, `locked_until`) it renews while the job runs: a crashed instance's claim
-- expires and another instance takes the job, counting the lost run as an attempt. A queued job that
-- fails `max_attempts` times is kept as `dead` for the operator to see.
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"key" text DEFAULT gen_random_uuid()::text NOT NULL,
	"every_ms" integer,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	-- Queued again under its key while it ran: it runs once more instead of being deleted.
	"rerun" boolean DEFAULT false NOT NULL,
	"claim" uuid,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_status_check" CHECK ("status" IN ('queued', 'running', 'dead')),
	CONSTRAINT "jobs_every_check" CHECK ("every_ms" IS NULL OR "every_ms" > 0),
	CONSTRAINT "jobs_claim_check" CHECK (("status" = 'running') = ("claim" IS NOT NULL AND "locked_until" IS NOT NULL))
);
--> statement-breakpoint
-- One live row per (name, key): a job queued twice under one key runs once (once more when the
-- second came while it ran); a dead one does not block the next.
CREATE UNIQUE INDEX "jobs_live_key_uq" ON "jobs" ("name", "key") WHERE "status" <> 'dead';
--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" ("run_at") WHERE "status" <> 'dead';
--> statement-breakpoint
-- What the operator's Overview shows of each job beside its rows: its runs, failed runs, and the
-- last run's times and error.
CREATE TABLE "job_stats" (
	"name" text PRIMARY KEY NOT NULL,
	"runs" bigint DEFAULT 0 NOT NULL,
	"failures" bigint DEFAULT 0 NOT NULL,
	"last_started_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone,
	"last_error" text
);
