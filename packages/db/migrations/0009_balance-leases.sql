-- Byte leases (decision 007): a gateway instance reserves part of a user's balance before it
-- relays, so several instances share one balance instead of each spending it whole. leased_bytes
-- is the sum of the user's leases, kept in step with balance_leases by every statement that
-- changes either; a grant is one conditional UPDATE on the user's row (balance - leased).
ALTER TABLE "users" ADD COLUMN "leased_bytes" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE TABLE "balance_leases" (
	"instance_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"bytes" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "balance_leases_instance_id_user_id_pk" PRIMARY KEY("instance_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "balance_leases" ADD CONSTRAINT "balance_leases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "balance_leases_expires_at_idx" ON "balance_leases" USING btree ("expires_at");
