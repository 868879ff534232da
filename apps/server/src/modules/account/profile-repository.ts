import { bytesToGb, gbToBytes, type Profile, type ProfileUpdate } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";

const PROFILE_COLUMNS = "id, email, refund_address, low_balance_threshold_bytes";

interface ProfileRow {
  id: string;
  email: string;
  refund_address: string | null;
  low_balance_threshold_bytes: string | number | null;
}

/** The stored fields; the route adds the operator and factor flags. */
type StoredProfile = Omit<Profile, "is_operator" | "second_factor" | "operator_factor_missing">;

function toProfile(row: ProfileRow): StoredProfile {
  const threshold = row.low_balance_threshold_bytes;
  return {
    id: row.id,
    email: row.email,
    refund_address: row.refund_address,
    low_balance_threshold_gb: threshold === null ? null : bytesToGb(Number(threshold)),
  };
}

/** Every query is scoped by the caller's id only: the body carries no user id, so nobody can name
 * another account. Null when the account no longer exists. */
export function createProfileRepository(database: Database) {
  return {
    async find(userId: string): Promise<StoredProfile | null> {
      const [row] = await database.query<ProfileRow>(`SELECT ${PROFILE_COLUMNS} FROM users WHERE id = $1`, [
        userId,
      ]);
      return row ? toProfile(row) : null;
    },

    /**
     * Sets the fields the update names and leaves the others as they are. A new threshold re-arms
     * the low-balance alert by the rule the balance changes follow (docs/product.md#data-balance):
     * armed while the balance is strictly above the threshold (or the alert is off), not armed at
     * or below it. Otherwise an account sitting at its old threshold would lower it and then fall
     * below the new one without an e-mail.
     */
    async update(userId: string, update: ProfileUpdate): Promise<StoredProfile | null> {
      const threshold = update.low_balance_threshold_gb;
      const [row] = await database.query<ProfileRow>(
        `UPDATE users
            SET refund_address = CASE WHEN $2 THEN $3 ELSE refund_address END,
                low_balance_threshold_bytes = CASE WHEN $4 THEN $5::bigint ELSE low_balance_threshold_bytes END,
                low_balance_notified_at = CASE
                  WHEN NOT $4 OR $5::bigint IS NOT DISTINCT FROM low_balance_threshold_bytes THEN low_balance_notified_at
                  WHEN $5::bigint IS NULL OR balance_bytes > $5::bigint THEN NULL
                  ELSE COALESCE(low_balance_notified_at, now())
                END
          WHERE id = $1
          RETURNING ${PROFILE_COLUMNS}`,
        [
          userId,
          update.refund_address !== undefined,
          update.refund_address ?? null,
          threshold !== undefined,
          threshold == null ? null : gbToBytes(threshold),
        ],
      );
      return row ? toProfile(row) : null;
    },
  };
}
