import type { Database } from "@bytetoll/db";

/** A balance as the alert check saw it, and whether this call is the one that sends the e-mail. */
export interface LowBalanceCheck {
  email: string;
  balance_bytes: number;
  /** True for exactly one caller per crossing below the threshold, across all instances. */
  crossed: boolean;
  /** When this crossing was noted (tells one crossing's balance.low webhook from the next). */
  notified_at: Date | string | null;
}

export function createBalanceAlertRepository(database: Database) {
  return {
    async balanceBytes(userId: string): Promise<number | null> {
      const [row] = await database.query<{ balance_bytes: string | number }>(
        "SELECT balance_bytes FROM users WHERE id = $1",
        [userId],
      );
      return row ? Number(row.balance_bytes) : null;
    },

    /**
     * Moves the per-user flag to match the balance: set when it is below the threshold (the
     * e-mail is due), cleared (armed) only once it is strictly above it (or alerts are off). A
     * balance exactly at the threshold moves nothing: a new account holding just the free grant,
     * equal to the default threshold, has not been above it, so its first request is no crossing
     * (docs/product.md#data-balance). The row lock makes concurrent callers queue and re-check the
     * condition, so only one of them sees the flag move to set. Null when nothing had to change.
     */
    async settleFlag(userId: string): Promise<LowBalanceCheck | null> {
      const [row] = await database.query<{
        email: string;
        balance_bytes: string | number;
        crossed: boolean;
        notified_at: Date | string | null;
      }>(
        `UPDATE users
            SET low_balance_notified_at = CASE WHEN low_balance_notified_at IS NULL THEN now() END
          WHERE id = $1
            AND CASE WHEN low_balance_notified_at IS NULL
                     THEN low_balance_threshold_bytes IS NOT NULL AND balance_bytes < low_balance_threshold_bytes
                     ELSE low_balance_threshold_bytes IS NULL OR balance_bytes > low_balance_threshold_bytes
                END
          RETURNING email, balance_bytes, low_balance_notified_at IS NOT NULL AS crossed,
                    low_balance_notified_at AS notified_at`,
        [userId],
      );
      return row
        ? {
            email: row.email,
            balance_bytes: Number(row.balance_bytes),
            crossed: row.crossed,
            notified_at: row.notified_at,
          }
        : null;
    },

    /** After a failed send: the crossing counts as not yet told, so the next change tries again. */
    async forgetNotice(userId: string): Promise<void> {
      await database.query("UPDATE users SET low_balance_notified_at = NULL WHERE id = $1", [userId]);
    },
  };
}
