-- Exits (upstream suppliers) as data: the operator adds, changes and takes them out in the console,
-- and every gateway reads them here (announced on the change feed as "upstream:<id>"). The URL is
-- kept without its password (url_public); the password is sealed with AES-256-GCM under a key only
-- the instances hold (UPSTREAMS_KEY or DATA_DIR/upstreams-key), never stored in clear.
CREATE TABLE "upstreams" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "name" text NOT NULL,
  "pool" text NOT NULL,
  "url_public" text NOT NULL,
  "password_sealed" text,
  "countries" text[] DEFAULT '{}' NOT NULL,
  "cost_per_gb_micros" bigint NOT NULL,
  "weight" integer DEFAULT 1 NOT NULL,
  "monthly_budget_bytes" bigint,
  "enabled" boolean DEFAULT true NOT NULL,
  "budget_mail_month" date,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "upstreams_name_unique" UNIQUE ("name"),
  CONSTRAINT "upstreams_pool_check" CHECK ("pool" IN ('mobile', 'datacenter')),
  CONSTRAINT "upstreams_cost_check" CHECK ("cost_per_gb_micros" >= 0),
  CONSTRAINT "upstreams_weight_check" CHECK ("weight" BETWEEN 1 AND 100),
  CONSTRAINT "upstreams_budget_check" CHECK ("monthly_budget_bytes" IS NULL OR "monthly_budget_bytes" > 0)
);
--> statement-breakpoint
CREATE FUNCTION bytetoll_notify_upstream() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('bytetoll_changes', 'upstream:' || OLD.id);
  ELSE
    PERFORM pg_notify('bytetoll_changes', 'upstream:' || NEW.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER upstreams_changed AFTER INSERT OR UPDATE OR DELETE ON upstreams
  FOR EACH ROW EXECUTE FUNCTION bytetoll_notify_upstream();
--> statement-breakpoint
-- The bytes each exit carried, per UTC day and customer, with the exit's cost and the tariff's price
-- in force when they moved (part of the key: a later price change never rewrites history). Written
-- in the usage flush's own transaction, so it holds exactly the billed usage. upstream_key is the
-- console exit's id, or an environment exit's id (its URL without credentials).
CREATE TABLE "upstream_usage" (
  "day" date NOT NULL,
  "upstream_key" text NOT NULL,
  "upstream_name" text NOT NULL,
  "pool" text NOT NULL,
  "user_id" uuid NOT NULL,
  "proxy_type" text NOT NULL,
  "cost_per_gb_micros" bigint NOT NULL,
  "price_per_gb_micros" bigint NOT NULL,
  "bytes" bigint DEFAULT 0 NOT NULL,
  CONSTRAINT "upstream_usage_pk" PRIMARY KEY ("day", "upstream_key", "user_id", "proxy_type", "cost_per_gb_micros", "price_per_gb_micros")
);
--> statement-breakpoint
CREATE INDEX "upstream_usage_key_day_idx" ON "upstream_usage" ("upstream_key", "day");
