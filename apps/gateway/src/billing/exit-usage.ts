import type { SqlExecutor } from "@bytetoll/db";
import { sql } from "drizzle-orm";
import type { ProxyType } from "../base/tariff.ts";
import type { UsageRow } from "../relay/meter.ts";

/**
 * Inside the usage flush's transaction: the bytes of these rows per UTC day, exit, customer and
 * proxy type, added to upstream_usage under the exit's cost and the tariff's price in force when
 * they were metered. Committed with the batch (whose id makes a retry a no-op), so each billed
 * byte is booked to its exit exactly once, on any number of instances. Rows without an exit
 * (read back from an older journal) are billed but not booked.
 */
export async function bookExitUsage(
  executor: SqlExecutor,
  rows: readonly UsageRow[],
  prices: Record<ProxyType, number>,
): Promise<void> {
  const booked = new Map<string, { row: UsageRow; bytes: number }>();
  for (const row of rows) {
    const exit = row.exit;
    if (!exit || row.bytes <= 0) continue;
    const key = JSON.stringify([row.day, exit.key, exit.costPerGbMicros, row.userId, row.proxyType]);
    const entry = booked.get(key);
    if (entry) entry.bytes += row.bytes;
    else booked.set(key, { row, bytes: row.bytes });
  }
  if (booked.size === 0) return;
  const values = sql.join(
    [...booked.values()].map(({ row, bytes }) => {
      const exit = row.exit as NonNullable<UsageRow["exit"]>;
      const pool = exit.pool === "dc" ? "datacenter" : exit.pool;
      return sql`(${row.day}::date, ${exit.key}::text, ${exit.name}::text, ${pool}::text, ${row.userId}::uuid, ${row.proxyType}::text, ${exit.costPerGbMicros}::bigint, ${prices[row.proxyType]}::bigint, ${bytes}::bigint)`;
    }),
    sql`, `,
  );
  await executor.execute(sql`
    INSERT INTO upstream_usage AS u
      (day, upstream_key, upstream_name, pool, user_id, proxy_type, cost_per_gb_micros, price_per_gb_micros, bytes)
    SELECT v.* FROM (VALUES ${values})
        AS v(day, upstream_key, upstream_name, pool, user_id, proxy_type, cost_per_gb_micros, price_per_gb_micros, bytes)
      JOIN users ON users.id = v.user_id
    ON CONFLICT (day, upstream_key, user_id, proxy_type, cost_per_gb_micros, price_per_gb_micros) DO UPDATE
      SET bytes = u.bytes + EXCLUDED.bytes, upstream_name = EXCLUDED.upstream_name`);
}
