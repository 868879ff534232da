-- Keeps usage_daily_totals and usage_weekly_domains equal to sums over usage_rollups, whoever
-- writes the rollups (the gateway's flush, the seed generator, an operator). Statement-level
-- triggers with transition tables: one grouped upsert per statement, however many rows it
-- touched. Rows are merged in key order so concurrent flushes lock totals in the same order.
-- (Transition tables are only visible inside the trigger function itself, hence the repetition.)
CREATE FUNCTION usage_rollups_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily_totals AS t (user_id, day, proxy_type, bytes, requests)
  SELECT user_id, day, proxy_type, sum(bytes), sum(requests)
    FROM usage_rollups_new AS d
   GROUP BY user_id, day, proxy_type
   ORDER BY user_id, day, proxy_type
  ON CONFLICT (user_id, day, proxy_type) DO UPDATE
    SET bytes = t.bytes + EXCLUDED.bytes, requests = t.requests + EXCLUDED.requests;
  INSERT INTO usage_weekly_domains AS t (user_id, week, domain, proxy_type, bytes, requests)
  SELECT user_id, date_trunc('week', day)::date, domain, proxy_type, sum(bytes), sum(requests)
    FROM usage_rollups_new AS d
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (user_id, week, domain, proxy_type) DO UPDATE
    SET bytes = t.bytes + EXCLUDED.bytes, requests = t.requests + EXCLUDED.requests;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION usage_rollups_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily_totals AS t (user_id, day, proxy_type, bytes, requests)
  SELECT user_id, day, proxy_type, sum(bytes), sum(requests)
    FROM (SELECT user_id, day, domain, proxy_type, bytes, requests FROM usage_rollups_new
           UNION ALL
           SELECT user_id, day, domain, proxy_type, -bytes, -requests FROM usage_rollups_old) AS d
   GROUP BY user_id, day, proxy_type
   ORDER BY user_id, day, proxy_type
  ON CONFLICT (user_id, day, proxy_type) DO UPDATE
    SET bytes = t.bytes + EXCLUDED.bytes, requests = t.requests + EXCLUDED.requests;
  INSERT INTO usage_weekly_domains AS t (user_id, week, domain, proxy_type, bytes, requests)
  SELECT user_id, date_trunc('week', day)::date, domain, proxy_type, sum(bytes), sum(requests)
    FROM (SELECT user_id, day, domain, proxy_type, bytes, requests FROM usage_rollups_new
           UNION ALL
           SELECT user_id, day, domain, proxy_type, -bytes, -requests FROM usage_rollups_old) AS d
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (user_id, week, domain, proxy_type) DO UPDATE
    SET bytes = t.bytes + EXCLUDED.bytes, requests = t.requests + EXCLUDED.requests;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Deleted rows only ever subtract from totals that exist: the totals of an account being deleted
-- go by their own cascade, and inserting a negative row for it would break the foreign key.
CREATE FUNCTION usage_rollups_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE usage_daily_totals AS t
     SET bytes = t.bytes - g.bytes, requests = t.requests - g.requests
    FROM (SELECT user_id, day, proxy_type, sum(bytes) AS bytes, sum(requests) AS requests
            FROM usage_rollups_old GROUP BY user_id, day, proxy_type) AS g
   WHERE t.user_id = g.user_id AND t.day = g.day AND t.proxy_type = g.proxy_type;
  UPDATE usage_weekly_domains AS t
     SET bytes = t.bytes - g.bytes, requests = t.requests - g.requests
    FROM (SELECT user_id, date_trunc('week', day)::date AS week, domain, proxy_type,
                 sum(bytes) AS bytes, sum(requests) AS requests
            FROM usage_rollups_old GROUP BY 1, 2, 3, 4) AS g
   WHERE t.user_id = g.user_id AND t.week = g.week AND t.domain = g.domain AND t.proxy_type = g.proxy_type;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER usage_rollups_totals_insert AFTER INSERT ON usage_rollups
  REFERENCING NEW TABLE AS usage_rollups_new
  FOR EACH STATEMENT EXECUTE FUNCTION usage_rollups_inserted();
--> statement-breakpoint
CREATE TRIGGER usage_rollups_totals_update AFTER UPDATE ON usage_rollups
  REFERENCING OLD TABLE AS usage_rollups_old NEW TABLE AS usage_rollups_new
  FOR EACH STATEMENT EXECUTE FUNCTION usage_rollups_updated();
--> statement-breakpoint
CREATE TRIGGER usage_rollups_totals_delete AFTER DELETE ON usage_rollups
  REFERENCING OLD TABLE AS usage_rollups_old
  FOR EACH STATEMENT EXECUTE FUNCTION usage_rollups_deleted();
--> statement-breakpoint
-- Rollups written before this migration.
INSERT INTO usage_daily_totals (user_id, day, proxy_type, bytes, requests)
SELECT user_id, day, proxy_type, sum(bytes), sum(requests)
  FROM usage_rollups GROUP BY user_id, day, proxy_type;
--> statement-breakpoint
INSERT INTO usage_weekly_domains (user_id, week, domain, proxy_type, bytes, requests)
SELECT user_id, date_trunc('week', day)::date, domain, proxy_type, sum(bytes), sum(requests)
  FROM usage_rollups GROUP BY 1, 2, 3, 4;
