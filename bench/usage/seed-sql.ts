import type { Database } from "@bytetoll/db";

/**
 * Rollup rows generated inside the database (generate_series), for bench:usage at millions of
 * rows: nothing crosses the wire but the statement, and each chunk of days is one INSERT, so the
 * usage_rollups triggers keep the daily and weekly totals with one statement-level pass per chunk.
 *
 * Each day, each of the `credentials` (sub-user ids; the nil id for the account's own) touches
 * about the same number of domains per proxy type, drawn with a strong bias to the top ranks
 * (rank = ⌈domains · u²⌉): a few domains every day, a long tail now and then. Bytes fall off with
 * the rank (Zipf-like). A draw that repeats a row of the same day is dropped, so each day draws
 * as many times as it takes for the expected number of distinct domains to be the rows wanted:
 * the account gets `rows` rows give or take a fraction of a percent.
 */
export interface SqlUsage {
  userId: string;
  days: number;
  domains: number;
  rows: number;
  credentials: string[];
}

const DAYS_PER_STATEMENT = 30;

/** Draws of rank = ⌈domains · u²⌉ needed for `distinct` different ranks on average: rank r comes
 * up with chance p_r = √(r/domains) − √((r−1)/domains), so n draws give Σ 1 − (1 − p_r)^n. */
export function drawsForDistinct(distinct: number, domains: number): number {
  const expected = (draws: number) => {
    let sum = 0;
    for (let rank = 1; rank <= domains; rank++) {
      const chance = Math.sqrt(rank / domains) - Math.sqrt((rank - 1) / domains);
      sum += 1 - (1 - chance) ** draws;
    }
    return sum;
  };
  const wanted = Math.min(distinct, domains - 1);
  let low = 1;
  let high = domains * 1_000;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (expected(middle) >= wanted) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Inserts the account's rows, 30 days per statement; returns how many were written. */
export async function seedUsageSql(database: Database, usage: SqlUsage, seed: number): Promise<number> {
  const perDay = Math.max(1, Math.round(usage.rows / (usage.days * 2 * usage.credentials.length)));
  const draws = drawsForDistinct(perDay, usage.domains);
  await database.query("SELECT setseed($1)", [seed]);
  let written = 0;
  for (let end = 0; end < usage.days; end += DAYS_PER_STATEMENT) {
    const first = Math.min(usage.days - 1, end + DAYS_PER_STATEMENT - 1);
    const [result] = await database.query<{ n: string }>(
      `WITH drawn AS (
         SELECT DISTINCT current_date - d.back AS day, c.id AS subuser_id, t.kind,
                ceil($4::int * random() ^ 2)::int AS rank
           FROM generate_series($2::int, $3::int) AS d(back)
          CROSS JOIN unnest($5::uuid[]) AS c(id)
          CROSS JOIN (VALUES ('mobile'), ('dc')) AS t(kind)
          CROSS JOIN generate_series(1, $6::int) AS k(n)
       ), inserted AS (
         INSERT INTO usage_rollups (user_id, subuser_id, day, domain, proxy_type, bytes, requests)
         SELECT $1::uuid, subuser_id, day, 'site' || rank || '.example', kind,
                greatest(200, (4e9 / rank ^ 1.07 * (0.3 + random())))::bigint,
                greatest(1, (4e5 / rank ^ 1.07 * (0.3 + random())))::bigint
           FROM drawn
         RETURNING 1)
       SELECT count(*) AS n FROM inserted`,
      [usage.userId, end, first, usage.domains, `{${usage.credentials.join(",")}}`, draws],
    );
    written += Number(result?.n ?? 0);
  }
  return written;
}
