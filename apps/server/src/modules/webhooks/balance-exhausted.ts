import { bytesToGb } from "@bytetoll/contracts";
import type { Db } from "@bytetoll/db";
import { sql } from "drizzle-orm";
import type { RaisedEvent } from "./outbox.ts";

/**
 * Moves the account's exhausted flag to match its balance: set when it is at or below zero,
 * cleared once above. The conditional UPDATE lets exactly one caller (of all instances) see it
 * set, and that caller raises balance.exhausted. Null when there is nothing to raise.
 */
export async function exhaustedEvent(db: Db, userId: string): Promise<RaisedEvent | null> {
  const { rows } = await db.execute<{
    balance_bytes: string | number;
    exhausted_at: Date | string | null;
  }>(sql`
    UPDATE users
       SET balance_exhausted_at = CASE WHEN balance_exhausted_at IS NULL THEN now() END
     WHERE id = ${userId}
       AND CASE WHEN balance_exhausted_at IS NULL THEN balance_bytes <= 0 ELSE balance_bytes > 0 END
     RETURNING balance_bytes, balance_exhausted_at AS exhausted_at`);
  const row = rows[0];
  if (!row?.exhausted_at) return null;
  const balanceBytes = Number(row.balance_bytes);
  return {
    userId,
    type: "balance.exhausted",
    key: `balance.exhausted:${new Date(row.exhausted_at).toISOString()}`,
    data: { balance_gb: bytesToGb(balanceBytes), balance_bytes: balanceBytes },
  };
}
