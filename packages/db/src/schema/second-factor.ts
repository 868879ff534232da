import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { createdAt } from "./columns.ts";

const at = (name: string) => timestamp(name, { withTimezone: true });
const owner = () =>
  uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

/** An authenticator app's secret, sealed; pending until a first code enables it (migration 0035). */
export const totpFactors = pgTable("totp_factors", {
  userId: owner().primaryKey(),
  secretEnc: text("secret_enc").notNull(),
  enabledAt: at("enabled_at"),
  /** The newest 30-second step a code was accepted for: a code counts once. */
  lastStep: bigint("last_step", { mode: "number" }),
  createdAt: createdAt(),
});

/** Single-use recovery codes, kept as SHA-256 only. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    userId: owner(),
    codeHash: text("code_hash").notNull(),
    usedAt: at("used_at"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "recovery_codes_pk", columns: [t.userId, t.codeHash] })],
);

/** WebAuthn credentials (passkeys) registered to an account. */
export const passkeys = pgTable(
  "passkeys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: owner(),
    credentialId: text("credential_id").notNull(),
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports").array().notNull().default(sql`'{}'`),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: at("last_used_at"),
  },
  (t) => [uniqueIndex("passkeys_credential_uq").on(t.credentialId), index("passkeys_user_idx").on(t.userId)],
);

/** Short-lived, single-use challenges: a sign-in waiting for its factor, or a passkey registration. */
export const factorChallenges = pgTable(
  "factor_challenges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: owner(),
    purpose: text("purpose").notNull(),
    tokenHash: text("token_hash"),
    webauthnChallenge: text("webauthn_challenge"),
    purchaseAmountUsd: integer("purchase_amount_usd"),
    dealId: integer("deal_id"),
    expiresAt: at("expires_at").notNull(),
    usedAt: at("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("factor_challenges_token_uq").on(t.tokenHash),
    index("factor_challenges_user_idx").on(t.userId),
    check("factor_challenges_purpose_check", sql`${t.purpose} IN ('sign_in', 'passkey')`),
  ],
);

/** Wrong second-factor codes, per account and per address, counted over 15 minutes. */
export const factorFailures = pgTable(
  "factor_failures",
  { limitKey: text("limit_key").notNull(), createdAt: createdAt() },
  (t) => [index("factor_failures_key_idx").on(t.limitKey, t.createdAt)],
);
