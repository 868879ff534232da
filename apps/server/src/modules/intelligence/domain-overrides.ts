import {
  type AdminDomain,
  type AdminDomainsQuery,
  type DomainOverride,
  parseHostnameLines,
  type Verdict,
  type VerdictEvidence,
} from "@bytetoll/contracts";
import type { Database, SqlExecutor } from "@bytetoll/db";
import { sql } from "drizzle-orm";
import { AppError, notFound } from "../../errors.ts";

interface DomainRow {
  domain: string;
  verdict: Verdict;
  override: DomainOverride | null;
  evidence: VerdictEvidence | null;
  last_probe_at: Date | string | null;
  next_probe_at: Date | string;
  failed_probes: number | string;
  updated_at: Date | string;
  rules: number | string;
}

const DOMAIN_COLUMNS = `v.domain, v.verdict, v.override, v.evidence, v.last_probe_at, v.next_probe_at,
  v.failed_probes, v.updated_at, (SELECT count(*) FROM routing_rules r WHERE r.rule = v.domain) AS rules`;

const iso = (value: Date | string) => new Date(value).toISOString();

function toDomain(row: DomainRow): AdminDomain {
  return {
    domain: row.domain,
    verdict: row.verdict,
    override: row.override,
    evidence: row.evidence,
    last_probe_at: row.last_probe_at === null ? null : iso(row.last_probe_at),
    next_probe_at: iso(row.next_probe_at),
    failed_probes: Number(row.failed_probes),
    rules: Number(row.rules),
    updated_at: iso(row.updated_at),
  };
}

/** A bare, lower-case host name as the learner stores domains; anything else is a 400. */
function domainOf(text: string): string {
  const check = parseHostnameLines([text]);
  const domain = check.ok ? check.hostnames[0] : undefined;
  if (!domain || domain !== text.trim().toLowerCase()) {
    throw new AppError(400, "domain must be a host name such as example.com", "invalid_domain");
  }
  return domain;
}

/** Writes the audit row of an override inside the override's own transaction. */
export type RecordOverride = (
  tx: SqlExecutor,
  change: { domain: string; before: DomainOverride | null; after: DomainOverride | null },
) => Promise<void>;

/**
 * The operator's side of Intelligence: every domain the learner knows, with its verdict and
 * evidence, and a global override per domain that the gateway honours under -routing-smart for
 * every customer (docs/product.md#intelligence-rules).
 */
export function createDomainOverrides(database: Database) {
  return {
    async list(query: AdminDomainsQuery): Promise<{ data: AdminDomain[]; total: number }> {
      const search = query.search ? query.search.toLowerCase() : null;
      const where = `($1::text IS NULL OR strpos(v.domain, $1) > 0) AND ($2::text IS NULL OR v.verdict = $2)`;
      const rows = await database.query<DomainRow>(
        `SELECT ${DOMAIN_COLUMNS} FROM domain_verdicts v WHERE ${where}
         ORDER BY v.override IS NULL, v.domain LIMIT $3 OFFSET $4`,
        [search, query.verdict ?? null, query.per_page, (query.page - 1) * query.per_page],
      );
      const [count] = await database.query<{ total: string | number }>(
        `SELECT count(*) AS total FROM domain_verdicts v WHERE ${where}`,
        [search, query.verdict ?? null],
      );
      return { data: rows.map(toDomain), total: Number(count?.total ?? 0) };
    },

    /** Sets (or with null, clears) a domain's override and records it, in one transaction. A
     * domain the learner has not seen yet is added (and queued for a probe); clearing the
     * override of an unknown domain is a 404. */
    async setOverride(text: string, override: DomainOverride | null, record: RecordOverride) {
      const domain = domainOf(text);
      const row = await database.db.transaction(async (tx) => {
        const current = await tx.execute<{ override: DomainOverride | null }>(
          sql`SELECT override FROM domain_verdicts WHERE domain = ${domain} FOR UPDATE`,
        );
        const existing = current.rows[0];
        if (!existing && override === null) throw notFound("Domain not found");
        const before = existing?.override ?? null;
        await tx.execute(sql`
          INSERT INTO domain_verdicts (domain, override) VALUES (${domain}, ${override})
          ON CONFLICT (domain) DO UPDATE SET override = EXCLUDED.override, updated_at = now()`);
        await record(tx, { domain, before, after: override });
        const changed = await tx.execute<Record<string, unknown>>(
          sql`SELECT ${sql.raw(DOMAIN_COLUMNS)} FROM domain_verdicts v WHERE v.domain = ${domain}`,
        );
        return changed.rows[0] as unknown as DomainRow;
      });
      return toDomain(row);
    },
  };
}

export type DomainOverridesService = ReturnType<typeof createDomainOverrides>;
