-- Intelligence (decision 009). A routing rule's service is what the gateway does with the domain
-- under -routing-smart; decided_by says who set it last: the learner (which then keeps it in step
-- with the domain's verdict) or the user (whose choice the learner never overrides).
ALTER TABLE "routing_rules" ADD COLUMN "decided_by" text DEFAULT 'learner' NOT NULL;
--> statement-breakpoint
-- One verdict per domain, shared by every user: eligible (datacenter exits are served like mobile
-- ones), blocked, or unknown. probing_by/probing_until is the lease of the instance probing the
-- domain right now; a lease past its time is free again (its instance died mid-probe).
CREATE TABLE "domain_verdicts" (
	"domain" text PRIMARY KEY NOT NULL,
	"verdict" text DEFAULT 'unknown' NOT NULL,
	"evidence" jsonb,
	"last_probe_at" timestamp with time zone,
	"next_probe_at" timestamp with time zone DEFAULT now() NOT NULL,
	"failed_probes" integer DEFAULT 0 NOT NULL,
	"probing_by" text,
	"probing_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "domain_verdicts_next_probe_idx" ON "domain_verdicts" USING btree ("next_probe_at");
--> statement-breakpoint
-- How the gateway's connections to a domain ended, per proxy type and UTC minute: the learner
-- compares datacenter failures with mobile ones. Old minutes are deleted by the learner.
CREATE TABLE "domain_outcomes" (
	"domain" text NOT NULL,
	"proxy_type" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"connections" bigint DEFAULT 0 NOT NULL,
	"dial_failures" bigint DEFAULT 0 NOT NULL,
	"resets" bigint DEFAULT 0 NOT NULL,
	"tls_cut" bigint DEFAULT 0 NOT NULL,
	"blocked_statuses" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "domain_outcomes_pk" PRIMARY KEY("domain","minute","proxy_type")
);
--> statement-breakpoint
CREATE INDEX "domain_outcomes_minute_idx" ON "domain_outcomes" USING btree ("minute");
--> statement-breakpoint
-- The change feed (decision 006) announces a user's routing rules, so gateways drop their cached
-- copy at commit instead of waiting for it to expire.
CREATE FUNCTION bytetoll_notify_routing_rules() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('bytetoll_changes', 'routing_rules:' || OLD.user_id);
  ELSE
    PERFORM pg_notify('bytetoll_changes', 'routing_rules:' || NEW.user_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER routing_rules_changed AFTER INSERT OR UPDATE OR DELETE ON routing_rules
  FOR EACH ROW EXECUTE FUNCTION bytetoll_notify_routing_rules();
