-- A second factor at sign-in (decision 039): an authenticator app (TOTP, RFC 6238), passkeys
-- (WebAuthn), and ten single-use recovery codes.
-- The TOTP secret is sealed with AES-256-GCM under a key derived from JWT_SECRET; it is pending
-- until a first code proves the app holds it (enabled_at). `last_step` is the newest 30-second
-- step a code was accepted for: a code is taken once, and never one older than the last.
CREATE TABLE "totp_factors" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"secret_enc" text NOT NULL,
	"enabled_at" timestamp with time zone,
	"last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Recovery codes: only their SHA-256 is kept; `used_at` makes each single use.
CREATE TABLE "recovery_codes" (
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recovery_codes_pk" PRIMARY KEY ("user_id", "code_hash")
);
--> statement-breakpoint
-- Passkeys: the authenticator's credential id and public key (base64url), and its signature
-- counter, which must grow with every use when the authenticator keeps one.
CREATE TABLE "passkeys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" text[] DEFAULT '{}' NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "passkeys_credential_uq" ON "passkeys" ("credential_id");
--> statement-breakpoint
CREATE INDEX "passkeys_user_idx" ON "passkeys" ("user_id");
--> statement-breakpoint
-- Short-lived, single-use challenges: `sign_in` is what POST /auth/magic/verify hands out instead
-- of a token when the account has a factor (the followed link's order request rides along);
-- `passkey` holds a WebAuthn registration challenge. Only the hash of a sign-in challenge is kept.
CREATE TABLE "factor_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"purpose" text NOT NULL,
	"token_hash" text,
	"webauthn_challenge" text,
	"purchase_amount_usd" integer,
	"deal_id" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "factor_challenges_purpose_check" CHECK ("purpose" IN ('sign_in', 'passkey'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "factor_challenges_token_uq" ON "factor_challenges" ("token_hash");
--> statement-breakpoint
CREATE INDEX "factor_challenges_user_idx" ON "factor_challenges" ("user_id");
--> statement-breakpoint
-- Wrong codes, counted per account (`user:<id>`) and per address (`ip:<addr>`) over 15 minutes:
-- in the database, so every instance counts the same attempts.
CREATE TABLE "factor_failures" (
	"limit_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "factor_failures_key_idx" ON "factor_failures" ("limit_key", "created_at");
