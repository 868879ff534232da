-- Destination policy (decision 041, docs/product.md#destination-policy): the operator's rules on
-- where customers' traffic may go, and a sub-user's own list of allowed sites. A rule names a
-- domain ("example.com" or "*.example.com"), ports ("25,465,587", "1-1024"), or both; a null
-- customer_id makes it global. The gateway reads them all and keeps them in memory; every change
-- is announced as "destination_rules" on bytetoll_changes so every instance reads them again.
CREATE TABLE "destination_rules" (
  "id" bigserial PRIMARY KEY,
  "action" text NOT NULL CHECK ("action" IN ('block', 'allow', 'report')),
  "domain" text,
  "ports" text,
  "customer_id" uuid REFERENCES "users"("id") ON DELETE CASCADE,
  "reason" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "destination_rules_target" CHECK ("domain" IS NOT NULL OR "ports" IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX "destination_rules_customer_idx" ON "destination_rules" ("customer_id");
--> statement-breakpoint
-- Fresh installs start with squid's safe ports: 80, 443 and 1025-65535 open, every other port
-- refused, and 2525 too (the usual alternative SMTP port). The operator may change or delete it.
INSERT INTO "destination_rules" ("action", "ports", "reason") VALUES
  ('block', '1-79,81-442,444-1024,2525', 'Outgoing e-mail and other low ports are not allowed through the proxy');
--> statement-breakpoint
CREATE FUNCTION bytetoll_notify_destination_rules() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bytetoll_changes', 'destination_rules');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER destination_rules_changed AFTER INSERT OR UPDATE OR DELETE ON destination_rules
  FOR EACH STATEMENT EXECUTE FUNCTION bytetoll_notify_destination_rules();
--> statement-breakpoint
-- A sub-user's allowed sites: null lets it reach whatever its account may; a list limits it to
-- those names (exact, or "*.suffix" for every name below). A change is announced as its
-- credential's change, so every gateway reads the sub-user again.
ALTER TABLE "subusers" ADD COLUMN "allowed_domains" text[];
--> statement-breakpoint
DROP TRIGGER subusers_changed ON subusers;
--> statement-breakpoint
CREATE TRIGGER subusers_changed
  AFTER UPDATE OF password_hash, username, enabled, user_id, allowed_domains ON subusers
  FOR EACH ROW WHEN (
    OLD.password_hash IS DISTINCT FROM NEW.password_hash
    OR OLD.username IS DISTINCT FROM NEW.username
    OR OLD.enabled IS DISTINCT FROM NEW.enabled
    OR OLD.user_id IS DISTINCT FROM NEW.user_id
    OR OLD.allowed_domains IS DISTINCT FROM NEW.allowed_domains
  )
  EXECUTE FUNCTION bytetoll_notify_subuser();
--> statement-breakpoint
-- The operator's abuse look-up asks who reached one domain or address over a few days: the daily
-- per-credential domain totals (migration 0030), found by domain. Only the span-1 rows of single
-- credentials; domain and start never change in an upsert, so the rows' updates stay HOT.
CREATE INDEX "usage_domain_totals_domain_day" ON "usage_domain_totals" ("domain", "start")
  WHERE "span" = 1 AND "subuser_id" <> 'ffffffff-ffff-ffff-ffff-ffffffffffff';
--> statement-breakpoint
-- What report rules let through, for the abuse look-up: each gateway adds its counts per rule,
-- day, credential and target name every flush. No foreign key to the rule: a deleted rule's
-- counts stay as evidence (the audit log has the rule).
CREATE TABLE "destination_report_hits" (
  "rule_id" bigint NOT NULL,
  "day" date NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "subuser_id" uuid NOT NULL,
  "domain" text NOT NULL,
  "hits" bigint NOT NULL,
  CONSTRAINT "destination_report_hits_pk" PRIMARY KEY ("rule_id", "day", "user_id", "subuser_id", "domain")
);
--> statement-breakpoint
CREATE INDEX "destination_report_hits_domain_day" ON "destination_report_hits" ("domain", "day");
