CREATE TABLE "usage_daily_totals" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"proxy_type" text NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_daily_totals_user_id_day_proxy_type_pk" PRIMARY KEY("user_id","day","proxy_type")
);
--> statement-breakpoint
CREATE TABLE "usage_weekly_domains" (
	"user_id" uuid NOT NULL,
	"week" date NOT NULL,
	"domain" text NOT NULL,
	"proxy_type" text NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_weekly_domains_user_id_week_domain_proxy_type_pk" PRIMARY KEY("user_id","week","domain","proxy_type")
);
--> statement-breakpoint
ALTER TABLE "usage_daily_totals" ADD CONSTRAINT "usage_daily_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_weekly_domains" ADD CONSTRAINT "usage_weekly_domains_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;