import { BYTES_PER_GB, bytesToGb, type Profile, type ProfileUpdate } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";

const PROFILE_COLUMNS = "id, email, refund_address, low_balance_threshold_bytes";

interface ProfileRow {
  id: string;
  email: string;
  refund_address: string | null;
  low_balance_threshold_bytes: string | number | null;
}

function toProfile(row: ProfileRow): Profile {
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
    async find(userId: string): Promise<Profile | null> {
      const [row] = await database.query<ProfileRow>(`SELECT ${PROFILE_COLUMNS} FROM users WHERE id = $1`, [
        userId,
      ]);
      return row ? toProfile(row) : null;
    },

    /** Sets the fields the update names and leaves the others as they are. */
    async update(userId: string, update: ProfileUpdate): Promise<Profile | null> {
      const threshold = update.low_balance_threshold_gb;
      const [row] = await database.query<ProfileRow>(
        `UPDATE users
            SET refund_address = CASE WHEN $2 THEN $3 ELSE refund_address END,
                low_balance_threshold_bytes = CASE WHEN $4 THEN $5::bigint ELSE low_balance_threshold_bytes END
          WHERE id = $1
          RETURNING ${PROFILE_COLUMNS}`,
        [
          userId,
          update.refund_address !== undefined,
          update.refund_address ?? null,
          threshold !== undefined,
          threshold == null ? null : Math.round(threshold * BYTES_PER_GB),
        ],
      );
      return row ? toProfile(row) : null;
    },
  };
}
