-- "By domain" at scale (decision 032): usage_weekly_domains kept one row per (week, domain, proxy
-- type, credential), so a 90-day window of a busy account still summed ~200k rows. It is replaced
-- by per-domain totals over aligned spans of 1, 7 and 28 days, with the two proxy types as
-- columns, kept once per credential and once more for all credentials together (the max uuid,
-- which gen_random_uuid never yields). A window is a sum and difference of a few spans
-- (apps/server/src/modules/usage/day-window.ts), each one range of the primary key.
-- A span starts on a day counted from Monday 1970-01-05, so weeks are ISO weeks and every
-- 28-day span is four whole weeks.
CREATE FUNCTION usage_span_start(day date, span integer) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT day - (((day - DATE '1970-01-05') % span) + span) % span
$$;
--> statement-breakpoint
CREATE TABLE "usage_domain_totals" (
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"subuser_id" uuid NOT NULL,
	"span" smallint NOT NULL,
	"start" date NOT NULL,
	"domain" text NOT NULL,
	"mobile_bytes" bigint DEFAULT 0 NOT NULL,
	"dc_bytes" bigint DEFAULT 0 NOT NULL,
	"mobile_requests" bigint DEFAULT 0 NOT NULL,
	"dc_requests" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_domain_totals_pk" PRIMARY KEY ("user_id", "subuser_id", "span", "start", "domain")
);
--> statement-breakpoint
-- The triggers of migration 0023 for usage_daily_totals, and the domain totals in place of the
-- weekly ones: every changed rollup row is counted under its own credential and under "all",
-- for each span. One grouped upsert per statement, merged in key order.
CREATE OR REPLACE FUNCTION usage_rollups_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily_totals AS t (user_id, day, proxy_type, subuser_id, bytes, requests)
  SELECT user_id, day, proxy_type, subuser_id, sum(bytes), sum(requests)
    FROM usage_rollups_new AS d
   GROUP BY user_id, day, proxy_type, subuser_id
   ORDER BY user_id, day, proxy_type, subuser_id
  ON CONFLICT (user_id, day, proxy_type, subuser_id) DO UPDATE
    SET bytes = t.bytes + EXCLUDED.bytes, requests = t.requests + EXCLUDED.requests;
  INSERT INTO usage_domain_totals AS t
         (user_id, subuser_id, span, start, domain, mobile_bytes, dc_bytes, mobile_requests, dc_requests)
  SELECT d.user_id, c.id, s.span, usage_span_start(d.day, s.span), d.domain,
         coalesce(sum(d.bytes) FILTER (WHERE d.proxy_type = 'mobile'), 0),
         coalesce(sum(d.bytes) FILTER (WHERE d.proxy_type = 'dc'), 0),
         coalesce(sum(d.requests) FILTER (WHERE d.proxy_type = 'mobile'), 0),
         coalesce(sum(d.requests) FILTER (WHERE d.proxy_type = 'dc'), 0)
    FROM usage_rollups_new AS d
   CROSS JOIN LATERAL (VALUES (d.subuser_id), ('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)) AS c(id)
   CROSS JOIN (VALUES (1), (7), (28)) AS s(span)
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (user_id, subuser_id, span, start, domain) DO UPDATE
    SET mobile_bytes = t.mobile_bytes + EXCLUDED.mobile_bytes, dc_bytes = t.dc_bytes + EXCLUDED.dc_bytes,
        mobile_requests = t.mobile_requests + EXCLUDED.mobile_requests,
        dc_requests = t.dc_requests + EXCLUDED.dc_requests;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION usage_rollups_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily_totals AS t (user_id, day, proxy_type, subuser_id, bytes, requests)
  SELECT user_id, day, proxy_type, subuser_id, sum(bytes), sum(requests)
    FROM (SELECT user_id, day, proxy_type, subuser_id, bytes, requests FROM usage_rollups_new
           UNION ALL
           SELECT user_id, day, proxy_type, subuser_id, -bytes, -requests FROM usage_rollups_old) AS d
   GROUP BY user_id, day, proxy_type, subuser_id
   ORDER BY user_id, day, proxy_type, subuser_id
  ON CONFLICT (user_id, day, proxy_type, subuser_id) DO UPDATE
    SET bytes = t.bytes + EXCLUDED.bytes, requests = t.requests + EXCLUDED.requests;
  INSERT INTO usage_domain_totals AS t
         (user_id, subuser_id, span, start, domain, mobile_bytes, dc_bytes, mobile_requests, dc_requests)
  SELECT d.user_id, c.id, s.span, usage_span_start(d.day, s.span), d.domain,
         coalesce(sum(d.bytes) FILTER (WHERE d.proxy_type = 'mobile'), 0),
         coalesce(sum(d.bytes) FILTER (WHERE d.proxy_type = 'dc'), 0),
         coalesce(sum(d.requests) FILTER (WHERE d.proxy_type = 'mobile'), 0),
         coalesce(sum(d.requests) FILTER (WHERE d.proxy_type = 'dc'), 0)
    FROM (SELECT user_id, day, domain, proxy_type, subuser_id, bytes, requests FROM usage_rollups_new
           UNION ALL
           SELECT user_id, day, domain, proxy_type, subuser_id, -bytes, -requests FROM usage_rollups_old) AS d
   CROSS JOIN LATERAL (VALUES (d.subuser_id), ('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)) AS c(id)
   CROSS JOIN (VALUES (1), (7), (28)) AS s(span)
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (user_id, subuser_id, span, start, domain) DO UPDATE
    SET mobile_bytes = t.mobile_bytes + EXCLUDED.mobile_bytes, dc_bytes = t.dc_bytes + EXCLUDED.dc_bytes,
        mobile_requests = t.mobile_requests + EXCLUDED.mobile_requests,
        dc_requests = t.dc_requests + EXCLUDED.dc_requests;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- As before, deleted rows only subtract from totals that exist (an account's deletion cascades).
CREATE OR REPLACE FUNCTION usage_rollups_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE usage_daily_totals AS t
     SET bytes = t.bytes - g.bytes, requests = t.requests - g.requests
    FROM (SELECT user_id, day, proxy_type, subuser_id, sum(bytes) AS bytes, sum(requests) AS requests
            FROM usage_rollups_old GROUP BY user_id, day, proxy_type, subuser_id) AS g
   WHERE t.user_id = g.user_id AND t.day = g.day AND t.proxy_type = g.proxy_type
     AND t.subuser_id = g.subuser_id;
  UPDATE usage_domain_totals AS t
     SET mobile_bytes = t.mobile_bytes - g.mobile_bytes, dc_bytes = t.dc_bytes - g.dc_bytes,
         mobile_requests = t.mobile_requests - g.mobile_requests, dc_requests = t.dc_requests - g.dc_requests
    FROM (SELECT d.user_id, c.id AS subuser_id, s.span, usage_span_start(d.day, s.span) AS start, d.domain,
                 coalesce(sum(d.bytes) FILTER (WHERE d.proxy_type = 'mobile'), 0) AS mobile_bytes,
                 coalesce(sum(d.bytes) FILTER (WHERE d.proxy_type = 'dc'), 0) AS dc_bytes,
                 coalesce(sum(d.requests) FILTER (WHERE d.proxy_type = 'mobile'), 0) AS mobile_requests,
                 coalesce(sum(d.requests) FILTER (WHERE d.proxy_type = 'dc'), 0) AS dc_requests
            FROM usage_rollups_old AS d
           CROSS JOIN LATERAL (VALUES (d.subuser_id), ('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)) AS c(id)
           CROSS JOIN (VALUES (1), (7), (28)) AS s(span)
           GROUP BY 1, 2, 3, 4, 5) AS g
   WHERE t.user_id = g.user_id AND t.subuser_id = g.subuser_id AND t.span = g.span AND t.start = g.start
     AND t.domain = g.domain;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Rollups written before this migration.
INSERT INTO usage_domain_totals
       (user_id, subuser_id, span, start, domain, mobile_bytes, dc_bytes, mobile_requests, dc_requests)
SELECT d.user_id, c.id, s.span, usage_span_start(d.day, s.span), d.domain,
       coalesce(sum(d.bytes) FILTER (WHERE d.proxy_type = 'mobile'), 0),
       coalesce(sum(d.bytes) FILTER (WHERE d.proxy_type = 'dc'), 0),
       coalesce(sum(d.requests) FILTER (WHERE d.proxy_type = 'mobile'), 0),
       coalesce(sum(d.requests) FILTER (WHERE d.proxy_type = 'dc'), 0)
  FROM usage_rollups AS d
 CROSS JOIN LATERAL (VALUES (d.subuser_id), ('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)) AS c(id)
 CROSS JOIN (VALUES (1), (7), (28)) AS s(span)
 GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
DROP TABLE "usage_weekly_domains";
