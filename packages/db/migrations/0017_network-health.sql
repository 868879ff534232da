-- The operator's network view (decision 018). Each gateway instance adds its per-minute connect
-- figures per upstream exit (its own rows only, so it rewrites them whole while the minute is
-- open), and writes a heartbeat row every few seconds; a heartbeat older than a minute is a gone
-- instance. Both are pruned by the gateways after a day.
CREATE TABLE "upstream_stats" (
	"instance_id" text NOT NULL,
	"pool" text NOT NULL,
	"upstream_id" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"failures" bigint DEFAULT 0 NOT NULL,
	"connect_ms_sum" bigint DEFAULT 0 NOT NULL,
	"connect_ms_buckets" bigint[] DEFAULT '{}' NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "upstream_stats_pk" PRIMARY KEY("instance_id","pool","upstream_id","minute")
);
--> statement-breakpoint
CREATE INDEX "upstream_stats_minute_idx" ON "upstream_stats" USING btree ("minute");
--> statement-breakpoint
CREATE TABLE "gateway_instances" (
	"instance_id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"live_connections" integer DEFAULT 0 NOT NULL,
	"bytes_per_second" double precision DEFAULT 0 NOT NULL,
	"flush_lag_seconds" double precision DEFAULT 0 NOT NULL,
	"refusals" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"upstreams" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
-- An operator's global override of a domain's route under -routing-smart (force datacenter or
-- premium for every customer); null leaves it to the customers' rules.
ALTER TABLE "domain_verdicts" ADD COLUMN "override" text;
--> statement-breakpoint
ALTER TABLE "domain_verdicts" ADD CONSTRAINT "domain_verdicts_override_check"
  CHECK ("override" IS NULL OR "override" IN ('datacenter', 'premium'));
--> statement-breakpoint
CREATE INDEX "domain_verdicts_override_idx" ON "domain_verdicts" ("domain") WHERE "override" IS NOT NULL;
--> statement-breakpoint
-- The change feed announces an override as "domain_override:<domain>", so every gateway reloads
-- the overrides at commit.
CREATE FUNCTION bytetoll_notify_domain_override() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('bytetoll_changes', 'domain_override:' || OLD.domain);
  ELSE
    PERFORM pg_notify('bytetoll_changes', 'domain_override:' || NEW.domain);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER domain_override_inserted AFTER INSERT ON domain_verdicts
  FOR EACH ROW WHEN (NEW.override IS NOT NULL) EXECUTE FUNCTION bytetoll_notify_domain_override();
--> statement-breakpoint
CREATE TRIGGER domain_override_updated AFTER UPDATE OF override ON domain_verdicts
  FOR EACH ROW WHEN (OLD.override IS DISTINCT FROM NEW.override)
  EXECUTE FUNCTION bytetoll_notify_domain_override();
--> statement-breakpoint
CREATE TRIGGER domain_override_deleted AFTER DELETE ON domain_verdicts
  FOR EACH ROW WHEN (OLD.override IS NOT NULL) EXECUTE FUNCTION bytetoll_notify_domain_override();
