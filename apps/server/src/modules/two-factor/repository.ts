import type { Database, SqlExecutor } from "@bytetoll/db";
import { sql } from "drizzle-orm";

/** Advisory-lock class for counting wrong codes per key (any constant unique to this use). */
const FAILURE_LOCK_CLASS = 727_039;

export interface StoredPasskey {
  id: string;
  credential_id: string;
  public_key: string;
  counter: string | number;
  transports: string[];
  name: string;
  created_at: string | Date;
  last_used_at: string | Date | null;
}

export interface SignInChallenge {
  id: string;
  user_id: string;
  webauthn_challenge: string | null;
  purchase_amount_usd: number | null;
  deal_id: number | null;
}

const rowsOf = async <T>(executor: SqlExecutor, query: ReturnType<typeof sql>) =>
  (await executor.execute<T & Record<string, unknown>>(query)).rows as T[];

/** The SQL of second factors. Single use is always one conditional statement. */
export function createTwoFactorRepository(database: Database) {
  const { db } = database;
  return {
    transaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(tx));
    },

    /** An enabled authenticator app or any passkey. */
    async hasFactor(executor: SqlExecutor, userId: string): Promise<boolean> {
      const [row] = await rowsOf<{ on: boolean }>(
        executor,
        sql`SELECT EXISTS (SELECT 1 FROM totp_factors WHERE user_id = ${userId} AND enabled_at IS NOT NULL)
            OR EXISTS (SELECT 1 FROM passkeys WHERE user_id = ${userId}) AS on`,
      );
      return row?.on === true;
    },

    async totp(executor: SqlExecutor, userId: string, forUpdate = false) {
      const [row] = await rowsOf<{ secret_enc: string; enabled: boolean; last_step: string | number | null }>(
        executor,
        sql`SELECT secret_enc, enabled_at IS NOT NULL AS enabled, last_step FROM totp_factors
            WHERE user_id = ${userId} ${forUpdate ? sql`FOR UPDATE` : sql``}`,
      );
      if (!row) return null;
      return {
        secretEnc: row.secret_enc,
        enabled: row.enabled,
        lastStep: row.last_step === null ? null : Number(row.last_step),
      };
    },

    /** A new pending secret, replacing a pending one; an enabled app is left alone (null). */
    async savePendingTotp(executor: SqlExecutor, userId: string, secretEnc: string): Promise<boolean> {
      const rows = await rowsOf<{ user_id: string }>(
        executor,
        sql`INSERT INTO totp_factors (user_id, secret_enc) VALUES (${userId}, ${secretEnc})
            ON CONFLICT (user_id) DO UPDATE SET secret_enc = EXCLUDED.secret_enc, last_step = NULL, created_at = now()
              WHERE totp_factors.enabled_at IS NULL
            RETURNING user_id`,
      );
      return rows.length > 0;
    },

    /** Records the accepted step (and turns the app on); only a newer step than the last wins. */
    async acceptTotpStep(executor: SqlExecutor, userId: string, step: number): Promise<boolean> {
      const rows = await rowsOf<{ user_id: string }>(
        executor,
        sql`UPDATE totp_factors SET last_step = ${step}, enabled_at = coalesce(enabled_at, now())
            WHERE user_id = ${userId} AND (last_step IS NULL OR last_step < ${step}) RETURNING user_id`,
      );
      return rows.length > 0;
    },

    async deleteTotp(executor: SqlExecutor, userId: string): Promise<void> {
      await executor.execute(sql`DELETE FROM totp_factors WHERE user_id = ${userId}`);
    },

    async replaceRecoveryCodes(executor: SqlExecutor, userId: string, hashes: string[]): Promise<void> {
      await executor.execute(sql`DELETE FROM recovery_codes WHERE user_id = ${userId}`);
      for (const hash of hashes)
        await executor.execute(
          sql`INSERT INTO recovery_codes (user_id, code_hash) VALUES (${userId}, ${hash})`,
        );
    },

    async deleteRecoveryCodes(executor: SqlExecutor, userId: string): Promise<void> {
      await executor.execute(sql`DELETE FROM recovery_codes WHERE user_id = ${userId}`);
    },

    async useRecoveryCode(executor: SqlExecutor, userId: string, hash: string): Promise<boolean> {
      const rows = await rowsOf<{ user_id: string }>(
        executor,
        sql`UPDATE recovery_codes SET used_at = now()
            WHERE user_id = ${userId} AND code_hash = ${hash} AND used_at IS NULL RETURNING user_id`,
      );
      return rows.length > 0;
    },

    async recoveryCodesLeft(executor: SqlExecutor, userId: string): Promise<number> {
      const [row] = await rowsOf<{ left: string | number }>(
        executor,
        sql`SELECT count(*) AS left FROM recovery_codes WHERE user_id = ${userId} AND used_at IS NULL`,
      );
      return Number(row?.left ?? 0);
    },

    async passkeys(executor: SqlExecutor, userId: string): Promise<StoredPasskey[]> {
      return rowsOf<StoredPasskey>(
        executor,
        sql`SELECT id, credential_id, public_key, counter, transports, name, created_at, last_used_at
            FROM passkeys WHERE user_id = ${userId} ORDER BY created_at, id`,
      );
    },

    async insertPasskey(
      executor: SqlExecutor,
      userId: string,
      passkey: {
        credentialId: string;
        publicKey: string;
        counter: number;
        transports: string[];
        name: string;
      },
    ): Promise<StoredPasskey | null> {
      const rows = await rowsOf<StoredPasskey>(
        executor,
        sql`INSERT INTO passkeys (user_id, credential_id, public_key, counter, transports, name)
            VALUES (${userId}, ${passkey.credentialId}, ${passkey.publicKey}, ${passkey.counter},
                    ${`{${passkey.transports.join(",")}}`}::text[], ${passkey.name})
            ON CONFLICT (credential_id) DO NOTHING
            RETURNING id, credential_id, public_key, counter, transports, name, created_at, last_used_at`,
      );
      return rows[0] ?? null;
    },

    /** The counter only moves forward: a cloned authenticator replaying an old count loses. */
    async usePasskey(
      executor: SqlExecutor,
      id: string,
      oldCounter: number,
      newCounter: number,
    ): Promise<boolean> {
      const rows = await rowsOf<{ id: string }>(
        executor,
        sql`UPDATE passkeys SET counter = ${newCounter}, last_used_at = now()
            WHERE id = ${id} AND counter = ${oldCounter} RETURNING id`,
      );
      return rows.length > 0;
    },

    async deletePasskey(executor: SqlExecutor, userId: string, id: string): Promise<boolean> {
      const rows = await rowsOf<{ id: string }>(
        executor,
        sql`DELETE FROM passkeys WHERE id = ${id} AND user_id = ${userId} RETURNING id`,
      );
      return rows.length > 0;
    },

    async insertChallenge(
      executor: SqlExecutor,
      challenge: {
        userId: string;
        purpose: "sign_in" | "passkey";
        tokenHash: string | null;
        webauthnChallenge: string | null;
        purchaseAmountUsd: number | null;
        dealId: number | null;
        validMinutes: number;
      },
    ): Promise<void> {
      await executor.execute(sql`
        INSERT INTO factor_challenges (user_id, purpose, token_hash, webauthn_challenge, purchase_amount_usd, deal_id, expires_at)
        VALUES (${challenge.userId}, ${challenge.purpose}, ${challenge.tokenHash}, ${challenge.webauthnChallenge},
                ${challenge.purchaseAmountUsd}, ${challenge.dealId}, now() + make_interval(mins => ${challenge.validMinutes}))`);
    },

    /** A live sign-in challenge, locked for the caller's transaction when asked. */
    async signInChallenge(executor: SqlExecutor, tokenHash: string, forUpdate = false) {
      const [row] = await rowsOf<SignInChallenge>(
        executor,
        sql`SELECT id, user_id, webauthn_challenge, purchase_amount_usd, deal_id FROM factor_challenges
            WHERE token_hash = ${tokenHash} AND purpose = 'sign_in' AND used_at IS NULL AND expires_at > now()
            ${forUpdate ? sql`FOR UPDATE` : sql``}`,
      );
      return row ?? null;
    },

    async useChallenge(executor: SqlExecutor, id: string): Promise<boolean> {
      const rows = await rowsOf<{ id: string }>(
        executor,
        sql`UPDATE factor_challenges SET used_at = now() WHERE id = ${id} AND used_at IS NULL RETURNING id`,
      );
      return rows.length > 0;
    },

    /** Takes the newest live passkey-registration challenge of the account (single use). */
    async takePasskeyChallenge(executor: SqlExecutor, userId: string): Promise<string | null> {
      const [row] = await rowsOf<{ webauthn_challenge: string }>(
        executor,
        sql`UPDATE factor_challenges SET used_at = now()
            WHERE id = (SELECT id FROM factor_challenges
                        WHERE user_id = ${userId} AND purpose = 'passkey' AND used_at IS NULL AND expires_at > now()
                        ORDER BY created_at DESC LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING webauthn_challenge`,
      );
      return row?.webauthn_challenge ?? null;
    },

    /** Serialises attempts on one key across instances and counts its failures in the window. */
    async lockAndCountFailures(executor: SqlExecutor, key: string, windowMinutes: number): Promise<number> {
      await executor.execute(sql`SELECT pg_advisory_xact_lock(${FAILURE_LOCK_CLASS}, hashtext(${key}))`);
      const [row] = await rowsOf<{ count: string | number }>(
        executor,
        sql`SELECT count(*) AS count FROM factor_failures
            WHERE limit_key = ${key} AND created_at > now() - make_interval(mins => ${windowMinutes})`,
      );
      return Number(row?.count ?? 0);
    },

    async recordFailure(executor: SqlExecutor, key: string): Promise<void> {
      await executor.execute(sql`INSERT INTO factor_failures (limit_key) VALUES (${key})`);
    },
  };
}

export type TwoFactorRepository = ReturnType<typeof createTwoFactorRepository>;
