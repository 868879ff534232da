import { type Database, schema } from "@bytetoll/db";
import { eq } from "drizzle-orm";

const { ipAllowlist } = schema;

/** The SQL of IP allowlists; every statement names the owner. */
export function createAllowlistRepository(database: Database) {
  return {
    async list(userId: string): Promise<string[]> {
      const rows = await database.query<{ address: string; prefix: number; single: boolean }>(
        `SELECT host(range) AS address, masklen(range) AS prefix,
                masklen(range) = CASE family(range) WHEN 4 THEN 32 ELSE 128 END AS single
           FROM ip_allowlist WHERE user_id = $1 ORDER BY id`,
        [userId],
      );
      return rows.map((row) => (row.single ? row.address : `${row.address}/${row.prefix}`));
    },

    /** Replaces the user's list in one transaction; the exclusion constraint refuses an entry
     * overlapping another account's (SQLSTATE 23P01), and nothing changes then. */
    async replace(userId: string, ranges: readonly string[]): Promise<void> {
      await database.db.transaction(async (tx) => {
        await tx.delete(ipAllowlist).where(eq(ipAllowlist.userId, userId));
        if (ranges.length > 0)
          await tx.insert(ipAllowlist).values(ranges.map((range) => ({ userId, range })));
      });
    },
  };
}
