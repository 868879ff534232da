import type { Database } from "@bytetoll/db";

export interface ProfileRow {
  id: string;
  email: string;
  refund_address: string | null;
}

export function createProfileRepository(database: Database) {
  return {
    /** Scoped by the caller's id only: the body carries no user id, so nobody can name another
     * account. Null when the account no longer exists. */
    async setRefundAddress(userId: string, refundAddress: string | null): Promise<ProfileRow | null> {
      const [row] = await database.query<ProfileRow>(
        `UPDATE users SET refund_address = $2 WHERE id = $1
         RETURNING id, email, refund_address`,
        [userId, refundAddress],
      );
      return row ?? null;
    },
  };
}
