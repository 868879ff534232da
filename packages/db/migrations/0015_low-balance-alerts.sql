-- Low-balance e-mail: each customer's threshold (NULL = off, default 1 GB) and when the e-mail
-- for the current crossing was sent. A conditional UPDATE that sets low_balance_notified_at only
-- while it is NULL picks exactly one sender among server instances; it is cleared once the
-- balance is back at or above the threshold, so the next crossing e-mails again.
-- These columns are not in the users_changed trigger's column list: writing them announces nothing.
ALTER TABLE "users" ADD COLUMN "low_balance_threshold_bytes" bigint DEFAULT 1000000000;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "low_balance_notified_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_low_balance_threshold_check" CHECK ("low_balance_threshold_bytes" IS NULL OR "low_balance_threshold_bytes" > 0);
--> statement-breakpoint
-- Accounts already below the threshold crossed it before this existed: no e-mail for that one.
UPDATE "users" SET "low_balance_notified_at" = now() WHERE "balance_bytes" < "low_balance_threshold_bytes";
--> statement-breakpoint
-- A new account starts at 0 and has crossed nothing yet: it is armed once its balance first
-- reaches the threshold (the free GB does), so a first small purchase sends no alert.
ALTER TABLE "users" ALTER COLUMN "low_balance_notified_at" SET DEFAULT now();
