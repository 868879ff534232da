-- Auto top-up by card: one row per account that saved a card or chose its settings. The card is
-- the provider's saved payment method (a Stripe customer and payment method, or the sandbox's
-- test card); only its brand and last 4 digits are shown. `crossed_at` is set, by one conditional
-- UPDATE under the row lock, when a fall below the threshold has been handled (a top-up made, or
-- the monthly cap reached), and cleared once the balance is at or above the threshold again: of
-- many instances hearing the same balance change, exactly one makes the top-up.
CREATE TABLE "auto_topups" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"enabled" boolean DEFAULT false NOT NULL,
	"threshold_bytes" bigint DEFAULT 1000000000 NOT NULL,
	"amount_cents" bigint DEFAULT 5000 NOT NULL,
	"monthly_cap_cents" bigint DEFAULT 50000 NOT NULL,
	-- Which provider holds the card, and its ids there (kept for the customer id when the card goes).
	"card_provider" text,
	"provider_customer_id" text,
	"provider_method_id" text,
	"card_brand" text,
	"card_last4" text,
	-- The card page opened last (Checkout in setup mode); completing it saves the card.
	"setup_id" uuid,
	"setup_session_id" text,
	"setup_started_at" timestamp with time zone,
	"crossed_at" timestamp with time zone,
	-- Failed charges in a row; the third turns auto top-up off, a paid one starts again at 0.
	"failures" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auto_topups_amounts_check" CHECK ("threshold_bytes" > 0 AND "amount_cents" > 0 AND "monthly_cap_cents" >= "amount_cents"),
	CONSTRAINT "auto_topups_provider_check" CHECK ("card_provider" IS NULL OR "card_provider" IN ('sandbox', 'stripe')),
	CONSTRAINT "auto_topups_enabled_card_check" CHECK (NOT "enabled" OR "provider_method_id" IS NOT NULL),
	CONSTRAINT "auto_topups_failures_check" CHECK ("failures" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "auto_topups_setup_uq" ON "auto_topups" ("setup_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "auto_topups_setup_session_uq" ON "auto_topups" ("setup_session_id");
--> statement-breakpoint
-- Where an order came from: the customer's checkout, or an automatic top-up (the history says
-- "Auto top-up"; the monthly cap sums these).
ALTER TABLE "orders" ADD COLUMN "origin" text DEFAULT 'checkout' NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_origin_check" CHECK ("origin" IN ('checkout', 'auto_topup'));
--> statement-breakpoint
CREATE INDEX "orders_auto_topup_idx" ON "orders" ("user_id", "created_at") WHERE "origin" = 'auto_topup';
