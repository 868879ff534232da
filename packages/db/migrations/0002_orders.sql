CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"method" text NOT NULL,
	"network_type" text,
	"amount_cents" bigint NOT NULL,
	"bytes" bigint NOT NULL,
	"payment_status" text DEFAULT 'waiting' NOT NULL,
	"provider" text NOT NULL,
	"provider_payment_id" text,
	"pay_address" text,
	"qr_code" text,
	"price_amount_cents" bigint,
	"payment_token" text,
	"payin_hash" text,
	"credited_bytes" bigint DEFAULT 0 NOT NULL,
	"balance_bytes_after" bigint,
	"stripe_session_id" text,
	"stripe_redirect_url" text,
	"deal_id" text,
	"quantity" integer,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_user_created_idx" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_provider_payment_uq" ON "orders" USING btree ("provider","provider_payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_stripe_session_uq" ON "orders" USING btree ("stripe_session_id");--> statement-breakpoint
CREATE INDEX "orders_waiting_expiry_idx" ON "orders" USING btree ("expires_at") WHERE payment_status = 'waiting';