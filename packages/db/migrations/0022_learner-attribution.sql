-- Whose traffic an outcome was (decision 025): a domain's failures count toward the shared verdict
-- only when several accounts saw them, none of them most. Rows written before this migration
-- belong to no account (''). The key gains the account, so one row per (domain, minute, type,
-- account); rows are still deleted after a day, and each gateway caps the keys one account may
-- add per flush.
ALTER TABLE "domain_outcomes" ADD COLUMN "account" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "domain_outcomes" DROP CONSTRAINT "domain_outcomes_pk";
--> statement-breakpoint
ALTER TABLE "domain_outcomes" ADD CONSTRAINT "domain_outcomes_pk" PRIMARY KEY("domain","minute","proxy_type","account");
--> statement-breakpoint
-- The learner's probes of the last hour and the account each was made for ('' : the learner's own
-- schedule): accounts take turns, and each has a cap per hour. Deleted after an hour.
CREATE TABLE "learner_probe_log" (
	"account" text NOT NULL,
	"domain" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "learner_probe_log_account_idx" ON "learner_probe_log" USING btree ("account","at");
