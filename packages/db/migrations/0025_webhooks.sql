-- Webhooks: a customer's endpoints (at most 5, checked by the service under the user's row lock),
-- the events raised for the account, and one delivery per event and endpoint. A delivery is sent
-- by whichever instance claims it (claimed_until in the future, under FOR UPDATE SKIP LOCKED) and
-- is retried from the table, so it survives a restart and no two instances send it at once.
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	-- Sealed with the app secret: signing needs the secret itself, the API shows its last 4 only.
	"secret_enc" text NOT NULL,
	"secret_last4" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhook_endpoints_user_idx" ON "webhook_endpoints" ("user_id");
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"type" text NOT NULL,
	-- What the event is about (order id, deal and crossing), so a replayed cause raises nothing new.
	"dedupe_key" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_events_dedupe_uq" UNIQUE ("user_id", "dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL REFERENCES "webhook_events"("id") ON DELETE CASCADE,
	"endpoint_id" uuid NOT NULL REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"claim" uuid,
	"last_status_code" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_once_uq" UNIQUE ("event_id", "endpoint_id"),
	CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" ("endpoint_id", "id");
--> statement-breakpoint
-- Set when balance.exhausted was raised for the current time at or below zero; cleared once the
-- balance is above zero again. Not in the users_changed trigger's columns: writing it announces nothing.
ALTER TABLE "users" ADD COLUMN "balance_exhausted_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "users" SET "balance_exhausted_at" = now() WHERE "balance_bytes" <= 0;
