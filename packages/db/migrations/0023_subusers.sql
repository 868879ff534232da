-- Sub-users (issue 25): extra proxy credentials of an account, each with its own traffic limit.
-- Their usernames share the namespace of proxy_credentials (the gateway looks a name up in both):
-- generated names differ by prefix, and the triggers below refuse a name the other table holds.
-- used_bytes counts the relayed bytes of the period starting on period_start (00:00 UTC of the
-- day, the Monday, the 1st, or 1970-01-01 for "total"); leased_bytes is what gateway instances
-- reserved of the allowance (subuser_leases), kept in step the way users.leased_bytes is, so a
-- grant checks limit - used - leased on this one locked row.
CREATE FUNCTION subuser_period_start(period text) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT CASE period
    WHEN 'day' THEN (now() AT TIME ZONE 'UTC')::date
    WHEN 'week' THEN date_trunc('week', now() AT TIME ZONE 'UTC')::date
    WHEN 'month' THEN date_trunc('month', now() AT TIME ZONE 'UTC')::date
    ELSE DATE '1970-01-01'
  END
$$;
--> statement-breakpoint
CREATE TABLE "subusers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"label" text NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"password_enc" text NOT NULL,
	"limit_bytes" bigint,
	"limit_period" text DEFAULT 'total' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"period_start" date DEFAULT DATE '1970-01-01' NOT NULL,
	"used_bytes" bigint DEFAULT 0 NOT NULL,
	"leased_bytes" bigint DEFAULT 0 NOT NULL,
	"limit_notified_period" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subusers_username_unique" UNIQUE("username"),
	CONSTRAINT "subusers_limit_period_check" CHECK ("limit_period" IN ('day', 'week', 'month', 'total')),
	CONSTRAINT "subusers_limit_bytes_check" CHECK ("limit_bytes" IS NULL OR "limit_bytes" > 0)
);
--> statement-breakpoint
ALTER TABLE "subusers" ADD CONSTRAINT "subusers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "subusers_user_label_uq" ON "subusers" USING btree ("user_id","label");
--> statement-breakpoint
CREATE TABLE "subuser_leases" (
	"instance_id" text NOT NULL,
	"subuser_id" uuid NOT NULL,
	"bytes" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "subuser_leases_instance_id_subuser_id_pk" PRIMARY KEY("instance_id","subuser_id")
);
--> statement-breakpoint
ALTER TABLE "subuser_leases" ADD CONSTRAINT "subuser_leases_subuser_id_subusers_id_fk" FOREIGN KEY ("subuser_id") REFERENCES "public"."subusers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "subuser_leases_expires_at_idx" ON "subuser_leases" USING btree ("expires_at");
--> statement-breakpoint
-- One namespace: a name held by one table cannot be given to the other.
CREATE FUNCTION proxy_username_taken() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'subusers' THEN
    PERFORM 1 FROM proxy_credentials WHERE username = NEW.username;
  ELSE
    PERFORM 1 FROM subusers WHERE username = NEW.username;
  END IF;
  IF FOUND THEN
    RAISE EXCEPTION 'proxy username % is taken', NEW.username USING ERRCODE = 'unique_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER subusers_username_free BEFORE INSERT OR UPDATE OF username ON subusers
  FOR EACH ROW EXECUTE FUNCTION proxy_username_taken();
--> statement-breakpoint
CREATE TRIGGER proxy_credentials_username_free BEFORE INSERT OR UPDATE OF username ON proxy_credentials
  FOR EACH ROW EXECUTE FUNCTION proxy_username_taken();
--> statement-breakpoint
-- A sub-user's password, name or enabled flag changing, or the sub-user going, is announced as
-- its credential's change (migration 0012's payload): every gateway forgets the cached credential
-- and closes the connections that presented it. Limits are read at each lease renewal instead.
CREATE FUNCTION bytetoll_notify_subuser() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bytetoll_changes', 'proxy_credential:' || OLD.username);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER subusers_changed AFTER UPDATE OF password_hash, username, enabled, user_id ON subusers
  FOR EACH ROW WHEN (
    OLD.password_hash IS DISTINCT FROM NEW.password_hash
    OR OLD.username IS DISTINCT FROM NEW.username
    OR OLD.enabled IS DISTINCT FROM NEW.enabled
    OR OLD.user_id IS DISTINCT FROM NEW.user_id
  )
  EXECUTE FUNCTION bytetoll_notify_subuser();
--> statement-breakpoint
CREATE TRIGGER subusers_deleted AFTER DELETE ON subusers
  FOR EACH ROW EXECUTE FUNCTION bytetoll_notify_subuser();
--> statement-breakpoint
-- Usage gets a sub-user dimension; the owner's own traffic is the nil id (no foreign key: the
-- usage of a deleted sub-user stays in the owner's statistics and bill).
ALTER TABLE "usage_rollups" ADD COLUMN "subuser_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000' NOT NULL;
--> statement-breakpoint
ALTER TABLE "usage_rollups" DROP CONSTRAINT "usage_rollups_user_id_day_domain_proxy_type_pk";
--> statement-breakpoint
ALTER TABLE "usage_rollups" ADD CONSTRAINT "usage_rollups_user_id_day_domain_proxy_type_subuser_id_pk" PRIMARY KEY("user_id","day","domain","proxy_type","subuser_id");
--> statement-breakpoint
ALTER TABLE "usage_daily_totals" ADD COLUMN "subuser_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000' NOT NULL;
--> statement-breakpoint
ALTER TABLE "usage_daily_totals" DROP CONSTRAINT "usage_daily_totals_user_id_day_proxy_type_pk";
--> statement-breakpoint
ALTER TABLE "usage_daily_totals" ADD CONSTRAINT "usage_daily_totals_user_id_day_proxy_type_subuser_id_pk" PRIMARY KEY("user_id","day","proxy_type","subuser_id");
--> statement-breakpoint
ALTER TABLE "usage_weekly_domains" ADD COLUMN "subuser_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000' NOT NULL;
--> statement-breakpoint
ALTER TABLE "usage_weekly_domains" DROP CONSTRAINT "usage_weekly_domains_user_id_week_domain_proxy_type_pk";
--> statement-breakpoint
ALTER TABLE "usage_weekly_domains" ADD CONSTRAINT "usage_weekly_domains_user_id_week_domain_proxy_type_subuser_id_pk" PRIMARY KEY("user_id","week","domain","proxy_type","subuser_id");
--> statement-breakpoint
-- The totals triggers of migration 0005, with the sub-user carried through every grouping.
CREATE OR REPLACE FUNCTION usage_rollups_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily_totals AS t (user_id, day, proxy_type, subuser_id, bytes, requests)
  SELECT user_id, day, proxy_type, subuser_id, sum(bytes), sum(requests)
    FROM usage_rollups_new AS d
   GROUP BY user_id, day, proxy_type, subuser_id
   ORDER BY user_id, day, proxy_type, subuser_id
  ON CONFLICT (user_id, day, proxy_type, subuser_id) DO UPDATE
    SET bytes = t.bytes + EXCLUDED.bytes, requests = t.requests + EXCLUDED.requests;
  INSERT INTO usage_weekly_domains AS t (user_id, week, domain, proxy_type, subuser_id, bytes, requests)
  SELECT user_id, date_trunc('week', day)::date, domain, proxy_type, subuser_id, sum(bytes), sum(requests)
    FROM usage_rollups_new AS d
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (user_id, week, domain, proxy_type, subuser_id) DO UPDATE
    SET bytes = t.bytes + EXCLUDED.bytes, requests = t.requests + EXCLUDED.requests;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION usage_rollups_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily_totals AS t (user_id, day, proxy_type, subuser_id, bytes, requests)
  SELECT user_id, day, proxy_type, subuser_id, sum(bytes), sum(requests)
    FROM (SELECT user_id, day, domain, proxy_type, subuser_id, bytes, requests FROM usage_rollups_new
           UNION ALL
           SELECT user_id, day, domain, proxy_type, subuser_id, -bytes, -requests FROM usage_rollups_old) AS d
   GROUP BY user_id, day, proxy_type, subuser_id
   ORDER BY user_id, day, proxy_type, subuser_id
  ON CONFLICT (user_id, day, proxy_type, subuser_id) DO UPDATE
    SET bytes = t.bytes + EXCLUDED.bytes, requests = t.requests + EXCLUDED.requests;
  INSERT INTO usage_weekly_domains AS t (user_id, week, domain, proxy_type, subuser_id, bytes, requests)
  SELECT user_id, date_trunc('week', day)::date, domain, proxy_type, subuser_id, sum(bytes), sum(requests)
    FROM (SELECT user_id, day, domain, proxy_type, subuser_id, bytes, requests FROM usage_rollups_new
           UNION ALL
           SELECT user_id, day, domain, proxy_type, subuser_id, -bytes, -requests FROM usage_rollups_old) AS d
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (user_id, week, domain, proxy_type, subuser_id) DO UPDATE
    SET bytes = t.bytes + EXCLUDED.bytes, requests = t.requests + EXCLUDED.requests;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION usage_rollups_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE usage_daily_totals AS t
     SET bytes = t.bytes - g.bytes, requests = t.requests - g.requests
    FROM (SELECT user_id, day, proxy_type, subuser_id, sum(bytes) AS bytes, sum(requests) AS requests
            FROM usage_rollups_old GROUP BY user_id, day, proxy_type, subuser_id) AS g
   WHERE t.user_id = g.user_id AND t.day = g.day AND t.proxy_type = g.proxy_type
     AND t.subuser_id = g.subuser_id;
  UPDATE usage_weekly_domains AS t
     SET bytes = t.bytes - g.bytes, requests = t.requests - g.requests
    FROM (SELECT user_id, date_trunc('week', day)::date AS week, domain, proxy_type, subuser_id,
                 sum(bytes) AS bytes, sum(requests) AS requests
            FROM usage_rollups_old GROUP BY 1, 2, 3, 4, 5) AS g
   WHERE t.user_id = g.user_id AND t.week = g.week AND t.domain = g.domain AND t.proxy_type = g.proxy_type
     AND t.subuser_id = g.subuser_id;
  RETURN NULL;
END $$;
