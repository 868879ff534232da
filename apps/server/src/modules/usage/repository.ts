import { type Database, schema } from "@bytetoll/db";
import { type DayWindow, type SpanRange, spanRanges } from "./day-window.ts";

export type { DayWindow } from "./day-window.ts";

/** Exact sums of one bucket. Sums come back as float8: exact for integers below 2^53 (9 PB),
 * and both drivers (pg, PGlite) hand float8 over as a JS number, unlike numeric or int8. */
export interface UsageTotals {
  mobile_bytes: number;
  dc_bytes: number;
  mobile_requests: number;
  dc_requests: number;
}

export interface DayTotals extends UsageTotals {
  date: string;
}

export interface DomainTotals extends UsageTotals {
  value: string;
  /** True for the row that groups everything below the top N. */
  others: boolean;
}

/** One rollup row exactly as stored, counts as decimal text (never rounded through a float). */
export interface ExportLine {
  date: string;
  domain: string;
  proxy_type: string;
  subuser_id: string;
  /** The sub-user's label; null for the account's own credentials or a deleted sub-user. */
  label: string | null;
  bytes: string;
  requests: string;
}

export interface ExportCursor {
  date: string;
  domain: string;
  proxyType: string;
  subuserId: string;
}

export interface SubuserTotals extends UsageTotals {
  subuser_id: string;
  /** Null for the account's own credentials and for a sub-user deleted since. */
  label: string | null;
}

/** Which usage a query reads: a sub-user's id, the own credentials' nil id, or null for all. */
export type SubuserFilter = string | null;

// The filter is the last parameter of every query: NULL reads every sub-user's rows.
const ONLY = (n: number) => `($${n}::uuid IS NULL OR subuser_id = $${n}::uuid)`;

// The four metric sums of docs/product.md#data-shapes over a set of rollup rows.
const METRIC_SUMS = `
  coalesce(sum(bytes) FILTER (WHERE proxy_type = 'mobile'), 0)::float8 AS mobile_bytes,
  coalesce(sum(bytes) FILTER (WHERE proxy_type = 'dc'), 0)::float8 AS dc_bytes,
  coalesce(sum(requests) FILTER (WHERE proxy_type = 'mobile'), 0)::float8 AS mobile_requests,
  coalesce(sum(requests) FILTER (WHERE proxy_type = 'dc'), 0)::float8 AS dc_requests`;

// "By day", "by proxy type" and "by sub-user" read one (user_id, day range) of the per-day totals
// (≤ 2 rows a day per credential). "By domain" reads per-domain totals over 1-, 7- and 28-day
// spans, a few ranges added or taken away (spanRanges), each a range of the primary key
// (user_id, subuser_id, span, start, domain): the sub-user filter is part of the range, and
// the max uuid holds every credential's sum (migration 0030, decision 032).
const BY_DAY = `
  WITH totals AS (
    SELECT day, ${METRIC_SUMS}
      FROM usage_daily_totals
     WHERE user_id = $1 AND day BETWEEN $2::date AND $3::date AND ${ONLY(4)}
     GROUP BY day
  )
  SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
         coalesce(t.mobile_bytes, 0) AS mobile_bytes,
         coalesce(t.dc_bytes, 0) AS dc_bytes,
         coalesce(t.mobile_requests, 0) AS mobile_requests,
         coalesce(t.dc_requests, 0) AS dc_requests
    FROM generate_series($2::date, $3::date, interval '1 day') AS d(day)
    LEFT JOIN totals t ON t.day = d.day::date
   ORDER BY d.day`;

/** One UNION ALL branch per span range: each a range of the primary key, its sign and span
 * written into the statement (they come from spanRanges, never from a caller), its days as
 * parameters. Separate branches rather than a join with an array of ranges: the planner then
 * sees each range's real size, where the join's guessed one was large enough to switch on JIT
 * compilation (17 ms spent compiling a 6 ms query on PostgreSQL). */
function domainSource(ranges: SpanRange[]): string {
  if (ranges.length === 0) {
    return "SELECT NULL::text AS domain, 0::bigint AS mobile_bytes, 0::bigint AS dc_bytes, 0::bigint AS mobile_requests, 0::bigint AS dc_requests WHERE false";
  }
  return ranges
    .map((range, i) => {
      const sign = range.sign === 1 ? "" : "-";
      return `SELECT domain, ${sign}mobile_bytes AS mobile_bytes, ${sign}dc_bytes AS dc_bytes,
                     ${sign}mobile_requests AS mobile_requests, ${sign}dc_requests AS dc_requests
                FROM usage_domain_totals
               WHERE user_id = $1 AND subuser_id = $2::uuid AND span = ${Number(range.span)}
                 AND start BETWEEN $${4 + 2 * i}::date AND $${5 + 2 * i}::date`;
    })
    .join(" UNION ALL ");
}

// Ranked by total bytes, then requests, then name, so equal totals still come back in a stable
// order. Rows ranked below $3 fall into one bucket; a NULL $3 keeps every domain. The bucket is
// grouped by rank, not by name, so a domain that happens to be called "Others" is never merged.
// Domains whose rows were all deleted (totals back to zero) are left out.
const byDomainSql = (ranges: SpanRange[]) => `
  WITH source AS (${domainSource(ranges)}
  ), per_domain AS (
    SELECT domain,
           sum(mobile_bytes)::float8 AS mobile_bytes, sum(dc_bytes)::float8 AS dc_bytes,
           sum(mobile_requests)::float8 AS mobile_requests, sum(dc_requests)::float8 AS dc_requests,
           sum(mobile_bytes + dc_bytes) AS total_bytes, sum(mobile_requests + dc_requests) AS total_requests
      FROM source
     GROUP BY domain
    HAVING sum(mobile_bytes + dc_bytes) > 0 OR sum(mobile_requests + dc_requests) > 0
  ), ranked AS (
    SELECT per_domain.*,
           row_number() OVER (ORDER BY total_bytes DESC, total_requests DESC, domain) AS rank
      FROM per_domain
  ), bucketed AS (
    SELECT ranked.*,
           CASE WHEN $3::int IS NULL OR rank <= $3::int THEN rank ELSE $3::int + 1 END AS bucket
      FROM ranked
  )
  SELECT min(domain) AS value,
         ($3::int IS NOT NULL AND bucket > $3::int) AS others,
         sum(mobile_bytes) AS mobile_bytes,
         sum(dc_bytes) AS dc_bytes,
         sum(mobile_requests) AS mobile_requests,
         sum(dc_requests) AS dc_requests
    FROM bucketed
   GROUP BY bucket
   ORDER BY bucket`;

const BY_PROXY_TYPE = `
  SELECT ${METRIC_SUMS} FROM usage_daily_totals
   WHERE user_id = $1 AND day BETWEEN $2::date AND $3::date AND ${ONLY(4)}`;

// One row for the own credentials and one per sub-user the account holds (zero-filled), plus one
// per deleted sub-user that still has usage in the window; most bytes first, then by label.
const BY_SUBUSER = `
  WITH totals AS (
    SELECT subuser_id, ${METRIC_SUMS}
      FROM usage_daily_totals
     WHERE user_id = $1 AND day BETWEEN $2::date AND $3::date
     GROUP BY subuser_id
  ), named AS (
    SELECT '${schema.NO_SUBUSER}'::uuid AS id, NULL::text AS label
    UNION ALL
    SELECT id, label FROM subusers WHERE user_id = $1
  )
  SELECT coalesce(n.id, t.subuser_id)::text AS subuser_id, n.label,
         coalesce(t.mobile_bytes, 0) AS mobile_bytes, coalesce(t.dc_bytes, 0) AS dc_bytes,
         coalesce(t.mobile_requests, 0) AS mobile_requests, coalesce(t.dc_requests, 0) AS dc_requests
    FROM named n FULL JOIN totals t ON t.subuser_id = n.id
   WHERE ($4::uuid IS NULL OR coalesce(n.id, t.subuser_id) = $4::uuid)
   ORDER BY coalesce(t.mobile_bytes, 0) + coalesce(t.dc_bytes, 0) DESC, n.label NULLS FIRST, 1`;

// The export lists rollup rows themselves: one range of the rollups' primary key.
const IN_WINDOW = `r.user_id = $1 AND r.day BETWEEN $2::date AND $3::date
  AND ($5::uuid IS NULL OR r.subuser_id = $5::uuid)`;

const EXPORT_COLUMNS = `to_char(r.day, 'YYYY-MM-DD') AS date, r.domain, r.proxy_type,
  r.subuser_id::text AS subuser_id, s.label, r.bytes::text AS bytes, r.requests::text AS requests`;

const EXPORT_FROM = "usage_rollups r LEFT JOIN subusers s ON s.id = r.subuser_id AND s.user_id = r.user_id";

// Keyset pages in primary-key order: each page is a bounded range scan, however big the account.
const EXPORT_FIRST_PAGE = `
  SELECT ${EXPORT_COLUMNS} FROM ${EXPORT_FROM}
   WHERE ${IN_WINDOW}
   ORDER BY r.day, r.domain, r.proxy_type, r.subuser_id
   LIMIT $4`;

const EXPORT_NEXT_PAGE = `
  SELECT ${EXPORT_COLUMNS} FROM ${EXPORT_FROM}
   WHERE ${IN_WINDOW}
     AND (r.day, r.domain, r.proxy_type, r.subuser_id) > ($6::date, $7::text, $8::text, $9::uuid)
   ORDER BY r.day, r.domain, r.proxy_type, r.subuser_id
   LIMIT $4`;

/** The SQL of usage statistics: read-only, one statement per grouping, caller's rows only. */
export function createUsageRepository(database: Database) {
  return {
    byDay(userId: string, window: DayWindow, only: SubuserFilter = null): Promise<DayTotals[]> {
      return database.query<DayTotals>(BY_DAY, [userId, window.from, window.to, only]);
    },

    bySubuser(userId: string, window: DayWindow, only: SubuserFilter = null): Promise<SubuserTotals[]> {
      return database.query<SubuserTotals>(BY_SUBUSER, [userId, window.from, window.to, only]);
    },

    /** Whether the account holds this sub-user (a filter naming another's finds nothing). */
    async ownsSubuser(userId: string, subuserId: string): Promise<boolean> {
      const rows = await database.query("SELECT 1 FROM subusers WHERE id = $1 AND user_id = $2", [
        subuserId,
        userId,
      ]);
      return rows.length > 0;
    },

    /** Every domain, largest first; with `top`, the first `top` plus one row for the rest. */
    byDomain(
      userId: string,
      window: DayWindow,
      top: number | null,
      only: SubuserFilter = null,
    ): Promise<DomainTotals[]> {
      const ranges = spanRanges(window);
      return database.query<DomainTotals>(byDomainSql(ranges), [
        userId,
        only ?? schema.ALL_SUBUSERS,
        top,
        ...ranges.flatMap((range) => [range.first, range.last]),
      ]);
    },

    async byProxyType(userId: string, window: DayWindow, only: SubuserFilter = null): Promise<UsageTotals> {
      const [row] = await database.query<UsageTotals>(BY_PROXY_TYPE, [userId, window.from, window.to, only]);
      // An aggregate without GROUP BY always yields exactly one row.
      return row!;
    },

    exportPage(
      userId: string,
      window: DayWindow,
      limit: number,
      after: ExportCursor | null,
      only: SubuserFilter = null,
    ): Promise<ExportLine[]> {
      const base = [userId, window.from, window.to, limit, only];
      return after
        ? database.query<ExportLine>(EXPORT_NEXT_PAGE, [
            ...base,
            after.date,
            after.domain,
            after.proxyType,
            after.subuserId,
          ])
        : database.query<ExportLine>(EXPORT_FIRST_PAGE, base);
    },
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
