import { randomBytes } from "node:crypto";
import type { Database } from "@bytetoll/db";
import { sql } from "drizzle-orm";
import { driverErrorCode } from "../../errors.ts";

/** How long a proof link stays valid. */
export const PROOF_LIFETIME_MINUTES = 30;

/** One entry as stored: the range as the customer reads it, and its proof while it waits. */
export interface AllowlistRow {
  id: number;
  text: string;
  proven: boolean;
  proof_token: string | null;
  proof_expires_at: string | null;
}

/** An entry as the customer writes it: a single address without its /32 or /128. */
const AS_TEXT = `CASE WHEN masklen(range) = CASE family(range) WHEN 4 THEN 32 ELSE 128 END
                 THEN host(range) ELSE range::text END AS text`;

/** 128 random bits, in a form a URL carries as it is. */
const newProofToken = () => randomBytes(16).toString("base64url");

/** The SQL of IP allowlists; every statement names the owner (or the proof token, which names one). */
export function createAllowlistRepository(database: Database) {
  /** Proves the waiting entry `where` picks unless another account has proven the same range. */
  async function prove(where: string, params: unknown[]): Promise<string | null> {
    try {
      const rows = await database.query<{ text: string }>(
        `UPDATE ip_allowlist SET proven_at = now(), proof_token = NULL, proof_expires_at = NULL
          WHERE proven_at IS NULL AND ${where}
            AND NOT EXISTS (SELECT 1 FROM ip_allowlist other
                             WHERE other.range = ip_allowlist.range AND other.proven_at IS NOT NULL)
          RETURNING ${AS_TEXT}`,
        params,
      );
      return rows[0]?.text ?? null;
    } catch (error) {
      // A proof of the same range by another account committed between the check and the write.
      if (driverErrorCode(error) === "23505") return null;
      throw error;
    }
  }

  return {
    list: (userId: string) =>
      database.query<AllowlistRow>(
        `SELECT id::int AS id,
                ${AS_TEXT},
                proven_at IS NOT NULL AS proven, proof_token,
                CASE WHEN proof_expires_at > now() THEN to_char(proof_expires_at AT TIME ZONE 'UTC',
                  'YYYY-MM-DD"T"HH24:MI:SS"Z"') END AS proof_expires_at
           FROM ip_allowlist WHERE user_id = $1 ORDER BY id`,
        [userId],
      ),

    /** Makes the user's list hold exactly `ranges` in one transaction: entries kept keep their state,
     * new ones wait for a proof, and a waiting entry whose link expired gets a new link. */
    async replace(userId: string, ranges: readonly string[]): Promise<void> {
      await database.db.transaction(async (tx) => {
        // One replacement of a list at a time, so two saves never insert an entry twice.
        await tx.execute(sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
        const keep = sql.join(
          ranges.map((range) => sql`${range}::cidr`),
          sql`, `,
        );
        await tx.execute(
          ranges.length === 0
            ? sql`DELETE FROM ip_allowlist WHERE user_id = ${userId}`
            : sql`DELETE FROM ip_allowlist WHERE user_id = ${userId} AND range NOT IN (${keep})`,
        );
        for (const range of ranges) {
          await tx.execute(sql`
            INSERT INTO ip_allowlist (user_id, range)
            SELECT ${userId}, ${range}::cidr
             WHERE NOT EXISTS (SELECT 1 FROM ip_allowlist WHERE user_id = ${userId} AND range = ${range}::cidr)`);
        }
        const stale = await tx.execute<{ id: number }>(sql`
          SELECT id::int AS id FROM ip_allowlist
           WHERE user_id = ${userId} AND proven_at IS NULL
             AND (proof_expires_at IS NULL OR proof_expires_at <= now())`);
        for (const { id } of stale.rows) {
          await tx.execute(sql`
            UPDATE ip_allowlist SET proof_token = ${newProofToken()},
                   proof_expires_at = now() + make_interval(mins => ${PROOF_LIFETIME_MINUTES})
             WHERE id = ${id}`);
        }
      });
    },

    /** Proves the waiting entries of `userId` that hold `address`; an entry whose range another
     * account has proven stays waiting (the unique index refuses it, one entry at a time). */
    async proveFrom(userId: string, address: string): Promise<void> {
      const waiting = await database.query<{ id: number }>(
        `SELECT id::int AS id FROM ip_allowlist
          WHERE user_id = $1 AND proven_at IS NULL AND $2::inet <<= range`,
        [userId, address],
      );
      for (const { id } of waiting) await prove("id = $1", [id]);
    },

    /** Proves the waiting entry whose live link is `token`, when `address` is in it: its range and
     * owner, or null for anything else (no such link, expired, another address, proven elsewhere). */
    async proveByToken(token: string, address: string): Promise<string | null> {
      return prove("proof_token = $1 AND proof_expires_at > now() AND $2::inet <<= range", [token, address]);
    },
  };
}
