-- Deals: flash sales and group buys. Every status move is one conditional UPDATE of a deals row,
-- and everything that moves a deal's stock or money locks that row first, so instances queue.
-- deal_price is USD per GB. reserved_gb is a flash sale's stock reserved or sold; deposited_cents
-- is a group buy's paid deposits that count towards its target (held, or credited at activation).
CREATE TABLE "deals" (
	"id" serial PRIMARY KEY NOT NULL,
	"deal_type" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price_usd_per_gb" numeric(12, 4) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone NOT NULL,
	"target_gb" bigint NOT NULL,
	"reserved_gb" bigint DEFAULT 0 NOT NULL,
	"deposited_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deals_type_check" CHECK ("deal_type" IN ('flash_sale', 'group_buy')),
	CONSTRAINT "deals_status_check" CHECK ("status" IN ('pending', 'live', 'activated', 'expired', 'cancelled')),
	CONSTRAINT "deals_price_check" CHECK ("price_usd_per_gb" > 0),
	CONSTRAINT "deals_target_check" CHECK ("target_gb" > 0),
	CONSTRAINT "deals_window_check" CHECK ("end_time" > "start_time"),
	CONSTRAINT "deals_reserved_check" CHECK ("reserved_gb" >= 0),
	CONSTRAINT "deals_deposited_check" CHECK ("deposited_cents" >= 0)
);
--> statement-breakpoint
CREATE INDEX "deals_status_end_idx" ON "deals" USING btree ("status", "end_time");
--> statement-breakpoint
-- A flash-sale order's stock: taken at order creation, given back once when the order ends unpaid.
CREATE TABLE "deal_reservations" (
	"order_id" uuid PRIMARY KEY NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"deal_id" integer NOT NULL REFERENCES "deals"("id") ON DELETE CASCADE,
	"gb" bigint NOT NULL,
	"released" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX "deal_reservations_open_idx" ON "deal_reservations" USING btree ("deal_id") WHERE "released" = false;
--> statement-breakpoint
-- Payouts the operator executes: a withdrawn or refunded deposit going back to a wallet.
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"deal_id" integer NOT NULL REFERENCES "deals"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"wallet_address" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"tx_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payouts_kind_check" CHECK ("kind" IN ('withdrawal', 'refund')),
	CONSTRAINT "payouts_status_check" CHECK ("status" IN ('pending', 'sent', 'failed')),
	CONSTRAINT "payouts_amount_check" CHECK ("amount_cents" > 0)
);
--> statement-breakpoint
CREATE INDEX "payouts_status_created_idx" ON "payouts" USING btree ("status", "created_at");
--> statement-breakpoint
CREATE INDEX "payouts_user_idx" ON "payouts" USING btree ("user_id", "created_at");
--> statement-breakpoint
-- A group buy's paid deposit, in exactly one state: held (counts towards the target), credited
-- (its GB reached the ledger at activation), refundable (the deal ended unmet and the owner has no
-- refund address yet), paid_out (a payout, pending or sent, carries it) or reversed (the payment
-- provider gave the money back: a refund or a chargeback).
CREATE TABLE "deal_deposits" (
	"order_id" uuid PRIMARY KEY NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"deal_id" integer NOT NULL REFERENCES "deals"("id") ON DELETE CASCADE,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"amount_cents" bigint NOT NULL,
	"status" text DEFAULT 'held' NOT NULL,
	"payout_id" uuid REFERENCES "payouts"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_deposits_status_check" CHECK ("status" IN ('held', 'credited', 'refundable', 'paid_out', 'reversed')),
	CONSTRAINT "deal_deposits_amount_check" CHECK ("amount_cents" > 0)
);
--> statement-breakpoint
CREATE INDEX "deal_deposits_deal_status_idx" ON "deal_deposits" USING btree ("deal_id", "status");
--> statement-breakpoint
CREATE INDEX "deal_deposits_user_deal_idx" ON "deal_deposits" USING btree ("user_id", "deal_id");
--> statement-breakpoint
-- The deal a login request named: its order is made when the link is followed.
ALTER TABLE "login_tokens" ADD COLUMN "deal_id" integer;
