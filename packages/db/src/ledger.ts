import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";

/** `refund` and `chargeback` take back (part of) an order's purchase credit; the balance may then
 * go below zero. */
export type LedgerKind = "purchase" | "bonus" | "usage" | "deposit" | "refund" | "chargeback" | "adjustment";

export interface LedgerEntryInput {
  userId: string;
  kind: LedgerKind;
  /** Unique per kind: the order id, batch id, … — replaying the same reference is a no-op. */
  reference: string;
  deltaBytes: number;
  note?: string | null;
}

/** Anything that can run a statement: the database or an open transaction. */
export type SqlExecutor = Pick<Db, "execute">;

/**
 * Appends one ledger entry and moves the balance by its delta in a single SQL statement, so the
 * invariant balance = sum(entries) holds under any concurrency and a replay changes nothing.
 * Returns the new balance, or `applied: false` when the (kind, reference) was already recorded.
 */
export async function applyLedgerEntry(
  executor: SqlExecutor,
  entry: LedgerEntryInput,
): Promise<{ applied: boolean; balanceBytes: number | null }> {
  const result = await executor.execute<{ balance_bytes: string | number }>(sql`
    WITH entry AS (
      INSERT INTO ledger_entries (user_id, kind, reference, delta_bytes, note)
      VALUES (${entry.userId}, ${entry.kind}, ${entry.reference}, ${Math.trunc(entry.deltaBytes)}, ${entry.note ?? null})
      ON CONFLICT (kind, reference) DO NOTHING
      RETURNING user_id, delta_bytes
    )
    UPDATE users SET balance_bytes = users.balance_bytes + entry.delta_bytes
    FROM entry WHERE users.id = entry.user_id
    RETURNING users.balance_bytes`);
  const row = result.rows[0];
  return row
    ? { applied: true, balanceBytes: Number(row.balance_bytes) }
    : { applied: false, balanceBytes: null };
}
