-- Team members, account-scoped sessions and scoped API tokens (decision 038).
-- A person signs in as themselves (a session with account_id NULL is their own account, as
-- owner); POST /auth/switch opens another session of theirs on an account they are a member of,
-- with the member's role copied onto the session. Removing a member revokes those sessions and
-- changing a role rewrites them, in the same transaction: the sessions_changed trigger of
-- migration 0008 then tells every instance at commit.
CREATE TABLE "account_members" (
	"account_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"role" text NOT NULL CHECK ("role" IN ('admin', 'billing', 'developer', 'viewer')),
	"invited_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_members_pk" PRIMARY KEY ("account_id", "user_id"),
	CONSTRAINT "account_members_not_self" CHECK ("account_id" <> "user_id")
);
--> statement-breakpoint
CREATE INDEX "account_members_user_idx" ON "account_members" ("user_id");
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "account_id" uuid REFERENCES "users"("id") ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "role" text NOT NULL DEFAULT 'owner'
	CHECK ("role" IN ('owner', 'admin', 'billing', 'developer', 'viewer'));
--> statement-breakpoint
CREATE INDEX "sessions_account_idx" ON "sessions" ("account_id", "user_id") WHERE "account_id" IS NOT NULL;
--> statement-breakpoint
-- Named API tokens with scopes, up to 20 per account (the service counts under the account's
-- row lock). Only the SHA-256 of a token is stored: it is shown once. last_used_at is written at
-- most once a minute per token and does not notify (it changes nothing a cache holds).
CREATE TABLE "scoped_api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"name" text NOT NULL,
	"scopes" text[] NOT NULL,
	"token_hash" text NOT NULL UNIQUE,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "scoped_api_tokens_account_idx" ON "scoped_api_tokens" ("account_id");
--> statement-breakpoint
CREATE FUNCTION bytetoll_notify_scoped_api_token() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bytetoll_changes', 'api_token:' || OLD.token_hash);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER scoped_api_tokens_deleted AFTER DELETE ON scoped_api_tokens
  FOR EACH ROW EXECUTE FUNCTION bytetoll_notify_scoped_api_token();
--> statement-breakpoint
-- What members did on an account, for its owner and admins: who, what, when.
CREATE TABLE "account_activity" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"actor_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"detail" text NOT NULL DEFAULT '',
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "account_activity_account_idx" ON "account_activity" ("account_id", "id" DESC);
