ALTER TABLE "orders" ADD COLUMN "stripe_payment_intent" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reversed_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_stripe_payment_intent_uq" ON "orders" USING btree ("stripe_payment_intent");--> statement-breakpoint
CREATE TABLE "payment_rejections" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"reference" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_rejections" ADD CONSTRAINT "payment_rejections_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_rejections_reference_uq" ON "payment_rejections" USING btree ("provider","reference","reason");--> statement-breakpoint
CREATE INDEX "payment_rejections_order_idx" ON "payment_rejections" USING btree ("order_id");
