import type { Database } from "@bytetoll/db";

export function createAccountRepository(database: Database) {
  return {
    async balanceBytes(userId: string): Promise<number> {
      const [row] = await database.query<{ balance_bytes: string | number }>(
        "SELECT balance_bytes FROM users WHERE id = $1",
        [userId],
      );
      return Number(row?.balance_bytes ?? 0);
    },
  };
}
