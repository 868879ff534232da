import { randomUUID } from "node:crypto";
import { type Database, debitUsage, type SqlExecutor, schema } from "@bytetoll/db";
import { sql } from "drizzle-orm";
import { BALANCE, releaseLease, SUBUSER_ALLOWANCE } from "../admit/lease.ts";
import type { ProxyType, Tariff } from "../base/tariff.ts";
import { exitKey, type UsageRow } from "../relay/meter.ts";
import { bookExitUsage } from "./exit-usage.ts";

export interface UsageBatch {
  id: string;
  rows: UsageRow[];
  /** Sent to the database at least once: from then on its content may never change. */
  attempted: boolean;
  /** Whole bytes of premium balance each user owes for this batch. */
  debits: Map<string, number>;
  /** Read back from the journal of a previous run: metered and leased by that run, so nothing
   * of it is held in this run's accounts. */
  recovered: boolean;
  /** The tariff's price per GB of each proxy type when the batch was made (micro-dollars): what
   * the exits' bytes are booked as billed at. */
  prices: Record<ProxyType, number>;
}

export function makeBatch(rows: UsageRow[], tariff: Tariff, id: string = randomUUID()): UsageBatch {
  return {
    id,
    rows,
    debits: tariff.debits(rows),
    attempted: false,
    recovered: false,
    prices: tariff.pricesMicros,
  };
}

/** Adds rows to a batch that was never sent (while the database is down, usage piles up in one
 * batch instead of one per tick). */
const rowKey = (row: UsageRow) =>
  `${row.userId}|${row.subuserId ?? ""}|${row.day}|${row.domain}|${row.proxyType}|${exitKey(row.exit)}`;

/** Relayed bytes per sub-user in these rows, in id order (the order their rows are locked in). */
export function subuserBytes(rows: readonly UsageRow[]): Array<[string, number]> {
  const bytes = new Map<string, number>();
  for (const row of rows) {
    if (row.subuserId !== null) bytes.set(row.subuserId, (bytes.get(row.subuserId) ?? 0) + row.bytes);
  }
  return [...bytes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function mergeInto(batch: UsageBatch, rows: UsageRow[], tariff: Tariff): void {
  const byKey = new Map(batch.rows.map((row) => [rowKey(row), row]));
  for (const row of rows) {
    const existing = byKey.get(rowKey(row));
    if (existing) {
      existing.bytes += row.bytes;
      existing.requests += row.requests;
    } else {
      batch.rows.push(row);
      byKey.set(rowKey(row), row);
    }
  }
  batch.debits = tariff.debits(batch.rows);
}

/**
 * Commits one batch in ONE transaction: the batch id (unique), the rollups, one ledger debit
 * per user and each sub-user's relayed bytes (its limit's use, and its lease released), which also releases that much of the lease `leaseHolder` (a gateway instance id)
 * holds for the user: the reserved bytes became used bytes. Committing the same batch again
 * changes nothing, so a flush whose outcome is unknown is simply retried. Returns the users' new
 * balances, or null when the batch was already in.
 */
export async function commitBatch(
  database: Database,
  batch: UsageBatch,
  leaseHolder?: string,
): Promise<Map<string, number> | null> {
  return database.db.transaction(async (tx) => {
    const claimed = await tx.execute(
      sql`INSERT INTO usage_batches (id) VALUES (${batch.id}) ON CONFLICT (id) DO NOTHING RETURNING id`,
    );
    if (claimed.rows.length === 0) return null;
    if (batch.rows.length > 0) {
      const values = sql.join(
        batch.rows.map(
          (r) =>
            sql`(${r.userId}::uuid, ${r.subuserId ?? schema.NO_SUBUSER}::uuid, ${r.day}::date, ${r.domain}::text, ${r.proxyType}::text, ${r.bytes}::bigint, ${r.requests}::bigint)`,
        ),
        sql`, `,
      );
      // Joined with users so usage of an account deleted meanwhile is dropped instead of
      // failing the whole batch forever on the foreign key. Rows differ by exit too: summed here.
      await tx.execute(sql`
        INSERT INTO usage_rollups (user_id, subuser_id, day, domain, proxy_type, bytes, requests)
        SELECT v.user_id, v.subuser_id, v.day, v.domain, v.proxy_type, sum(v.bytes), sum(v.requests)
          FROM (VALUES ${values}) AS v(user_id, subuser_id, day, domain, proxy_type, bytes, requests)
          JOIN users u ON u.id = v.user_id
         GROUP BY v.user_id, v.subuser_id, v.day, v.domain, v.proxy_type
        ON CONFLICT (user_id, day, domain, proxy_type, subuser_id) DO UPDATE
          SET bytes = usage_rollups.bytes + EXCLUDED.bytes,
              requests = usage_rollups.requests + EXCLUDED.requests`);
      await bookExitUsage(tx, batch.rows, batch.prices);
    }
    const balances = new Map<string, number>();
    // A user deleted since (possible for a batch recovered from the journal) has no ledger.
    const existing = await tx.execute<{ id: string }>(
      sql`SELECT id FROM users WHERE id = ANY(${`{${[...batch.debits.keys()].join(",")}}`}::uuid[])`,
    );
    const users = new Set(existing.rows.map((row) => row.id));
    for (const [userId, debit] of batch.debits) {
      if (debit <= 0 || !users.has(userId)) continue;
      const result = await debitUsage(tx, { userId, batchId: batch.id, bytes: debit });
      if (result.balanceBytes !== null) balances.set(userId, result.balanceBytes);
      // The user's row is locked now, then the lease row: the order a grant locks them in.
      if (leaseHolder !== undefined) await releaseLease(tx, BALANCE, leaseHolder, userId, debit);
    }
    // After the users' rows: a sub-user's row is locked after its owner's, never before.
    for (const [subuserId, bytes] of subuserBytes(batch.rows)) {
      await settleSubuserUsage(tx, subuserId, bytes, leaseHolder);
    }
    return balances;
  });
}

/**
 * Inside the usage flush's transaction: the sub-user's relayed bytes join its period's use (a new
 * period starts from them), and up to that much of the lease `instanceId` holds goes back — the
 * reserved bytes became used bytes. The sub-user's row is locked first, then the lease row, the
 * order a grant locks them in. A deleted sub-user changes nothing.
 */
async function settleSubuserUsage(
  executor: SqlExecutor,
  subuserId: string,
  bytes: number,
  instanceId: string | undefined,
): Promise<void> {
  await executor.execute(sql`
    UPDATE subusers SET
      used_bytes = CASE WHEN period_start = subuser_period_start(limit_period)
                        THEN used_bytes + ${bytes}::bigint ELSE ${bytes}::bigint END,
      period_start = subuser_period_start(limit_period)
     WHERE id = ${subuserId}`);
  if (instanceId !== undefined) await releaseLease(executor, SUBUSER_ALLOWANCE, instanceId, subuserId, bytes);
}
