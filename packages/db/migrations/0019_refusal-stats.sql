-- Refusals by reason over 1 to 90 days (issue 15): each gateway instance adds, every few seconds,
-- the refusals it gave per minute and reason and the requests it served per minute (its own rows
-- only, added to while the minute is open). The rate of a reason is its refusals over served +
-- refused. Pruned by the gateways after 90 days.
CREATE TABLE "refusal_stats" (
	"instance_id" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "refusal_stats_pk" PRIMARY KEY("instance_id","minute","reason")
);
--> statement-breakpoint
CREATE INDEX "refusal_stats_minute_idx" ON "refusal_stats" USING btree ("minute");
--> statement-breakpoint
CREATE TABLE "served_stats" (
	"instance_id" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "served_stats_pk" PRIMARY KEY("instance_id","minute")
);
--> statement-breakpoint
CREATE INDEX "served_stats_minute_idx" ON "served_stats" USING btree ("minute");
