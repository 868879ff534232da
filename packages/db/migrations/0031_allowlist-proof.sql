-- IP allowlist proofs (issue 35). An entry takes effect only once proven from an address it holds:
-- `proven_at` is null while it waits. The first-come exclusion constraint let one account find
-- another's addresses (the conflict was an oracle) and hold an address its owner could then never
-- list; now any account may claim anything, and only proven entries are unique: one account per
-- proven range (a narrower proven range inside a wider one of another account wins for its
-- addresses, so a range never keeps a customer from proving its own address). The proof is a
-- one-time random token fetched from the address before `proof_expires_at`; it is kept readable
-- because the owner's dashboard shows the link again, and it proves nothing unless it is fetched
-- from the address itself. Entries listed before this change keep taking effect.
ALTER TABLE "ip_allowlist" DROP CONSTRAINT "ip_allowlist_no_overlap";
--> statement-breakpoint
ALTER TABLE "ip_allowlist" ADD COLUMN "proven_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "ip_allowlist" ADD COLUMN "proof_token" text;
--> statement-breakpoint
ALTER TABLE "ip_allowlist" ADD COLUMN "proof_expires_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "ip_allowlist" SET "proven_at" = "created_at";
--> statement-breakpoint
CREATE UNIQUE INDEX "ip_allowlist_proven_range" ON "ip_allowlist" ("range") WHERE "proven_at" IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "ip_allowlist_proof_token" ON "ip_allowlist" ("proof_token") WHERE "proof_token" IS NOT NULL;
