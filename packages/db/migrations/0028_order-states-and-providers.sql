-- Two changes to how an order is stored, both with nothing lost.
--
-- 1. An order made without a payment method (at sign-in) has its own status, awaiting_method, and
--    no method, network or provider payment: it used to be stored as a waiting "crypto" order
--    with a null network. Such rows are moved over; the customer still sees them as waiting.
-- 2. Payment records are provider-neutral: provider_session_id (a hosted checkout session, e.g.
--    Stripe Checkout) and provider_payment_id (the provider's payment: a NOWPayments payment, a
--    Stripe payment intent) replace stripe_session_id / stripe_payment_intent, the hosted page's
--    address moves to provider_redirect_url, and one provider_events table (provider, event id)
--    de-duplicates callbacks instead of stripe_events.
--
-- Existing rows are checked first: a Stripe order whose provider_payment_id is neither empty nor
-- its session id would lose that value, so the migration stops naming it instead.
DO $$
DECLARE
  offending text;
BEGIN
  SELECT string_agg(id::text, ', ') INTO offending FROM (
    SELECT id FROM orders
     WHERE provider = 'stripe' AND provider_payment_id IS NOT NULL
       AND provider_payment_id IS DISTINCT FROM stripe_session_id
     ORDER BY id LIMIT 20) AS bad;
  IF offending IS NOT NULL THEN
    RAISE EXCEPTION 'migration 0028: these Stripe orders name a payment that is not their checkout session, which the new columns cannot hold; correct them and start again: %', offending;
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_check";
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_method_check";
--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "method" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "provider_session_id" text;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "provider_redirect_url" text;
--> statement-breakpoint
DROP INDEX IF EXISTS "orders_provider_payment_uq";
--> statement-breakpoint
UPDATE "orders" SET
  "provider_session_id" = coalesce("stripe_session_id", CASE WHEN "provider" = 'stripe' THEN "provider_payment_id" END),
  "provider_redirect_url" = "stripe_redirect_url",
  "provider_payment_id" = CASE WHEN "provider" = 'stripe' THEN "stripe_payment_intent" ELSE "provider_payment_id" END;
--> statement-breakpoint
UPDATE "orders" SET "payment_status" = 'awaiting_method', "method" = NULL
 WHERE "payment_status" = 'waiting' AND "method" = 'crypto' AND "network_type" IS NULL
   AND "provider_payment_id" IS NULL AND "provider_session_id" IS NULL AND "pay_address" IS NULL;
--> statement-breakpoint
DROP INDEX IF EXISTS "orders_stripe_session_uq";
--> statement-breakpoint
DROP INDEX IF EXISTS "orders_stripe_payment_intent_uq";
--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "stripe_session_id";
--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "stripe_redirect_url";
--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "stripe_payment_intent";
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_provider_payment_uq" ON "orders" USING btree ("provider", "provider_payment_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_provider_session_uq" ON "orders" USING btree ("provider", "provider_session_id");
--> statement-breakpoint
DROP INDEX IF EXISTS "orders_waiting_expiry_idx";
--> statement-breakpoint
CREATE INDEX "orders_waiting_expiry_idx" ON "orders" USING btree ("expires_at")
  WHERE payment_status IN ('waiting', 'awaiting_method');
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check"
  CHECK ("payment_status" IN ('awaiting_method', 'waiting', 'paid', 'partially_paid', 'failed', 'expired', 'refunded', 'cancelled'));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_method_check" CHECK ("method" IS NULL OR "method" IN ('crypto', 'card'));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_method_chosen_check"
  CHECK (CASE
    WHEN "payment_status" = 'awaiting_method' THEN "method" IS NULL AND "network_type" IS NULL
      AND "provider_payment_id" IS NULL AND "provider_session_id" IS NULL
    WHEN "payment_status" = 'waiting' THEN "method" IS NOT NULL
    ELSE true
  END);
--> statement-breakpoint
CREATE TABLE "provider_events" (
  "provider" text NOT NULL,
  "event_id" text NOT NULL,
  "type" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "provider_events_pk" PRIMARY KEY ("provider", "event_id")
);
--> statement-breakpoint
INSERT INTO "provider_events" ("provider", "event_id", "type", "created_at")
  SELECT 'stripe', "id", "type", "created_at" FROM "stripe_events";
--> statement-breakpoint
DROP TABLE "stripe_events";
