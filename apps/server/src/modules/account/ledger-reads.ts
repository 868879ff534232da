import type { Database, SqlExecutor } from "@bytetoll/db";
import { sql } from "drizzle-orm";

/** The operator console's reads of the ledger (ledger_entries: the account's balance history,
 * written only through @bytetoll/db's adjustBalance and applyLedgerEntry); the admin module
 * composes them (docs/architecture.md). */

/** One page of the account's ledger, newest first, and how many entries it has in all. */
export async function ledgerPage(database: Database, userId: string, pageRows: number, offset: number) {
  const [rows, totals] = await Promise.all([
    database.query<{
      id: string;
      kind: string;
      reference: string;
      delta_bytes: string;
      note: string | null;
      created_at: Date | string;
    }>(
      `SELECT id, kind, reference, delta_bytes, note, created_at FROM ledger_entries WHERE user_id = $1
            ORDER BY created_at DESC, id DESC LIMIT ${pageRows} OFFSET ${offset}`,
      [userId],
    ),
    database.query<{ total: string }>("SELECT count(*) AS total FROM ledger_entries WHERE user_id = $1", [
      userId,
    ]),
  ]);
  return { rows, total: Number(totals[0]?.total ?? 0) };
}

/** The entries an order made: its purchase credits and any refund or chargeback of it. */
export async function ledgerForOrder(database: Database, userId: string, orderId: string) {
  return database.query<{
    kind: string;
    reference: string;
    delta_bytes: string;
    note: string | null;
    created_at: Date;
  }>(
    `SELECT kind, reference, delta_bytes, note, created_at FROM ledger_entries
          WHERE user_id = $1 AND (
            (kind = 'purchase' AND reference LIKE $2)
            OR (kind IN ('refund', 'chargeback') AND (reference = $3 OR reference LIKE $2)))`,
    [userId, `order:${orderId}:%`, `order:${orderId}`],
  );
}

/** Bytes sold (purchase entries) per UTC day since `since`. */
export async function soldBytesByDay(database: Database, since: string) {
  return database.query<{ day: string; bytes: string }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(delta_bytes) AS bytes
         FROM ledger_entries WHERE kind = 'purchase' AND created_at >= $1::timestamptz
        GROUP BY 1`,
    [since],
  );
}

/** The adjustment an idempotency reference made, read inside the caller's transaction. */
export async function adjustmentByReference(tx: SqlExecutor, reference: string) {
  const { rows } = await tx.execute<{ user_id: string; delta_bytes: string | number; note: string | null }>(
    sql`SELECT user_id, delta_bytes, note FROM ledger_entries WHERE kind = 'adjustment' AND reference = ${reference}`,
  );
  return rows[0];
}
