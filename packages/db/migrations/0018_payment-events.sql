-- The provider's callbacks per order, for the operator's order page: one row per signed, verified
-- callback that concerns an order, written in the transaction that acts on it. summary holds
-- amounts and currencies only, never a signature or the provider's full payload.
CREATE TABLE "payment_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"event_type" text NOT NULL,
	"provider_reference" text NOT NULL,
	"outcome" text NOT NULL,
	"summary" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "payment_events_order_received_idx" ON "payment_events" USING btree ("order_id","received_at");
