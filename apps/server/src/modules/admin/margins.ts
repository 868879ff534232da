import { type MarginGroup, type MarginRow, MICROS_PER_USD } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import { accountEmails } from "../auth/index.ts";

/** Each grouping's key and label over the rows `r` (upstream_usage with each row's money). */
const GROUPS: Record<MarginGroup, { key: string; label: string; join: string }> = {
  day: { key: "r.day::text", label: "r.day::text", join: "" },
  upstream: {
    key: "r.upstream_key",
    label: "coalesce(max(x.name), max(r.upstream_name))",
    join: "LEFT JOIN upstreams x ON x.id::text = r.upstream_key",
  },
  pool: { key: "r.pool", label: "r.pool", join: "" },
  // Labelled with the customer's e-mail afterwards, through the auth module.
  customer: { key: "r.user_id::text", label: "r.user_id::text", join: "" },
};

interface Sums {
  key: string;
  label: string;
  bytes: string;
  billed: string;
  cost: string;
}

function row(key: string, label: string, bytes: bigint, billed: bigint, cost: bigint): MarginRow {
  const usd = (micros: bigint) => Number(micros) / MICROS_PER_USD;
  return {
    key,
    label,
    bytes: Number(bytes),
    billed_bytes: Number(bytes),
    billed_usd: usd(billed),
    cost_usd: usd(cost),
    margin_usd: usd(billed - cost),
  };
}

/**
 * Billed against cost for the UTC days `from`..`to`, grouped. Every stored row of upstream_usage
 * (one day, exit, customer and proxy type at one cost and one price) is priced once in integer
 * micro-dollars, rounded up as the money module prices used data: its billed amount at the tariff
 * it was billed at, its cost at the exit's cost then. Groups add those whole numbers, so every
 * grouping adds up to the same total, and a margin is exactly billed − cost.
 */
export async function margins(database: Database, from: string, to: string, groupBy: MarginGroup) {
  const group = GROUPS[groupBy];
  const rows = await database.query<Sums>(
    `WITH r AS (
       SELECT u.*, ceil(u.bytes::numeric * u.price_per_gb_micros / 1000000000)::bigint AS billed,
              ceil(u.bytes::numeric * u.cost_per_gb_micros / 1000000000)::bigint AS cost
         FROM upstream_usage u WHERE u.day BETWEEN $1::date AND $2::date)
     SELECT ${group.key} AS key, ${group.label} AS label, sum(r.bytes)::text AS bytes,
            sum(r.billed)::text AS billed, sum(r.cost)::text AS cost
       FROM r ${group.join} GROUP BY ${group.key} ORDER BY 1`,
    [from, to],
  );
  const emails =
    groupBy === "customer"
      ? await accountEmails(
          database,
          rows.map((sums) => sums.key),
        )
      : null;
  let bytes = 0n;
  let billed = 0n;
  let cost = 0n;
  const out = rows.map((sums) => {
    bytes += BigInt(sums.bytes);
    billed += BigInt(sums.billed);
    cost += BigInt(sums.cost);
    const label = emails?.get(sums.key) ?? sums.label;
    return row(sums.key, label, BigInt(sums.bytes), BigInt(sums.billed), BigInt(sums.cost));
  });
  return { rows: out, total: row("total", "Total", bytes, billed, cost) };
}
