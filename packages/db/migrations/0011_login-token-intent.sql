-- A login link no longer creates the account: it is created when the link is followed (proof of
-- the address), so a token may name no account yet.
ALTER TABLE "login_tokens" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
-- The order the login request asked for (whole USD), made when the link is followed.
ALTER TABLE "login_tokens" ADD COLUMN "purchase_amount_usd" integer;--> statement-breakpoint
-- The per-e-mail link limit counts by this key: the address without plus tag or trailing dot.
ALTER TABLE "login_tokens" ADD COLUMN "limit_key" text;--> statement-breakpoint
UPDATE "login_tokens" SET "limit_key" = regexp_replace(rtrim(lower("email"), '.'), '^([^+@]+)\+[^@]*@', '\1@');--> statement-breakpoint
ALTER TABLE "login_tokens" ALTER COLUMN "limit_key" SET NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS "login_tokens_email_created_idx";--> statement-breakpoint
CREATE INDEX "login_tokens_limit_key_created_idx" ON "login_tokens" USING btree ("limit_key","created_at");
