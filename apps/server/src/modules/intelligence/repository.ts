import type { RoutingService, Verdict, VerdictEvidence } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";

export interface RuleRow {
  id: string;
  rule: string;
  service: RoutingService;
  decided_by: "learner" | "user";
  verdict: Verdict | null;
  last_probe_at: Date | string | null;
  evidence: VerdictEvidence | null;
  dc_bytes_30d: string | number;
  override: RoutingService | null;
}

/** A domain's dc and mobile connection counts over the traffic window, failures included, and
 * whose the datacenter failures were: how many accounts had any, and the most one account had. */
export interface OutcomeTotals {
  domain: string;
  dc_connections: string;
  dc_failures: string;
  mobile_connections: string;
  mobile_failures: string;
  dc_failing_accounts: string;
  dc_top_account_failures: string;
}

/** The account the learner's own schedule (rechecks, the busiest domains) is counted under. */
export const LEARNER_ACCOUNT = "";

const FAILURES = "o.dial_failures + o.resets + o.tls_cut + o.blocked_statuses";

/** A rule covers its domain and every name below it; the same test the gateway applies. */
const COVERS = (rule: string, domain: string) =>
  `(${domain} = ${rule} OR right(${domain}, length(${rule}) + 1) = '.' || ${rule})`;

/** The operator's override that decides `name` for every customer: the most specific one set on
 * the name or a parent domain, as the gateway looks it up. */
const OVERRIDE_OF = (name: string) => `(
  SELECT o.override FROM domain_verdicts o
  WHERE o.override IS NOT NULL AND ${COVERS("o.domain", name)}
  ORDER BY length(o.domain) DESC LIMIT 1)`;

const RULE_COLUMNS = `
  r.id, r.rule, r.service, r.decided_by, v.verdict, v.last_probe_at, v.evidence,
  ${OVERRIDE_OF("r.rule")} AS override,
  coalesce((
    SELECT sum(u.bytes) FROM usage_rollups u
    WHERE u.user_id = r.user_id AND u.proxy_type = 'dc'
      AND u.day > (now() AT TIME ZONE 'UTC')::date - 30 AND ${COVERS("r.rule", "u.domain")}
  ), 0) AS dc_bytes_30d`;

/** service for a decided verdict: datacenter when eligible, else the premium value. */
const SERVICE_OF_VERDICT = "CASE v.verdict WHEN 'eligible' THEN 'datacenter' ELSE 'premium' END";

export function createIntelligenceRepository(database: Database) {
  return {
    async hostnames(userId: string): Promise<Array<{ hostname: string; override: RoutingService | null }>> {
      return database.query<{ hostname: string; override: RoutingService | null }>(
        `SELECT h.hostname, ${OVERRIDE_OF("h.hostname")} AS override
         FROM hostname_hints h WHERE h.user_id = $1 ORDER BY h.position, h.hostname`,
        [userId],
      );
    },

    /** Replaces the user's hints in one statement: new domains are queued for the learner (one it
     * could not decide yet is due again at once, for a hint new to this user), and domains it
     * already judged become this user's rules at once. */
    async replaceHostnames(userId: string, hostnames: string[]): Promise<void> {
      await database.query(
        `WITH dropped AS (
           DELETE FROM hostname_hints WHERE user_id = $1 AND NOT (hostname = ANY($2::text[]))
         ), kept AS (
           INSERT INTO hostname_hints (user_id, hostname, position)
           SELECT $1, h.hostname, (h.n - 1)::int FROM unnest($2::text[]) WITH ORDINALITY AS h(hostname, n)
           ON CONFLICT (user_id, hostname) DO UPDATE SET position = EXCLUDED.position
         ), queued AS (
           INSERT INTO domain_verdicts (domain) SELECT unnest($2::text[]) ON CONFLICT (domain) DO NOTHING
         ), requeued AS (
           UPDATE domain_verdicts SET next_probe_at = now()
           WHERE domain = ANY($2::text[]) AND verdict = 'unknown' AND next_probe_at > now()
             AND domain NOT IN (SELECT hostname FROM hostname_hints WHERE user_id = $1)
         )
         INSERT INTO routing_rules (user_id, rule, service)
         SELECT $1, v.domain, ${SERVICE_OF_VERDICT} FROM domain_verdicts v
         WHERE v.domain = ANY($2::text[]) AND v.verdict <> 'unknown'
         ON CONFLICT (user_id, rule) DO NOTHING`,
        [userId, hostnames],
      );
    },

    async rules(userId: string): Promise<RuleRow[]> {
      return database.query<RuleRow>(
        `SELECT ${RULE_COLUMNS} FROM routing_rules r LEFT JOIN domain_verdicts v ON v.domain = r.rule
         WHERE r.user_id = $1 ORDER BY r.rule`,
        [userId],
      );
    },

    /** The user's own choice: the learner leaves the rule's service alone from now on. */
    async setService(userId: string, id: string, service: RoutingService): Promise<RuleRow | null> {
      const [row] = await database.query<RuleRow>(
        `WITH changed AS (
           UPDATE routing_rules SET service = $3, decided_by = 'user', updated_at = now()
           WHERE id = $2 AND user_id = $1 RETURNING *
         )
         SELECT ${RULE_COLUMNS} FROM changed r LEFT JOIN domain_verdicts v ON v.domain = r.rule`,
        [userId, id, service],
      );
      return row ?? null;
    },

    /** Takes up to `limit` domains due for a probe: none probed in the last minute, none leased
     * to a live probe. Accounts take turns (round robin): each account's longest-waiting due hint
     * first, the account served longest ago first, then each one's second, and so on; a domain
     * nobody hinted is the learner's own turn. An account that had `perAccountHour` probes in the
     * last hour waits. Each claim is logged under its account. SKIP LOCKED plus the re-checked
     * conditions mean two instances claiming at the same moment never get the same domain. */
    async claimDue(
      instance: string,
      limit: number,
      leaseMs: number,
      perAccountHour: number,
    ): Promise<string[]> {
      const free = `next_probe_at <= now() AND (probing_until IS NULL OR probing_until < now())
        AND (last_probe_at IS NULL OR last_probe_at <= now() - interval '1 minute')`;
      const rows = await database.query<{ domain: string }>(
        `WITH due AS (
           SELECT v.domain, v.next_probe_at, coalesce(h.user_id::text, '') AS account
           FROM domain_verdicts v LEFT JOIN hostname_hints h ON h.hostname = v.domain WHERE ${free}
         ), served AS (
           SELECT account, count(*) AS probes, max(at) AS last_at FROM learner_probe_log
           WHERE at > now() - interval '1 hour' GROUP BY account
         ), turns AS (
           SELECT d.domain, d.account, s.last_at,
             row_number() OVER (PARTITION BY d.account ORDER BY d.next_probe_at, d.domain) AS turn
           FROM due d LEFT JOIN served s ON s.account = d.account
           WHERE d.account = '' OR coalesce(s.probes, 0) < $4
         ), picked AS (
           SELECT DISTINCT ON (domain) domain, account, turn, last_at FROM turns ORDER BY domain, turn, last_at NULLS FIRST
         ), chosen AS (
           SELECT domain, account FROM picked ORDER BY turn, last_at NULLS FIRST, account LIMIT $2
         ), claimed AS (
           UPDATE domain_verdicts
           SET probing_by = $1, probing_until = now() + $3 * interval '1 millisecond', last_probe_at = now(),
               updated_at = now()
           WHERE domain IN (
             SELECT domain FROM domain_verdicts WHERE domain IN (SELECT domain FROM chosen) AND ${free}
             FOR UPDATE SKIP LOCKED
           ) AND ${free}
           RETURNING domain
         ), logged AS (
           INSERT INTO learner_probe_log (account, domain)
           SELECT c.account, c.domain FROM chosen c JOIN claimed USING (domain)
         )
         SELECT domain FROM claimed`,
        [instance, limit, leaseMs, perAccountHour],
      );
      return rows.map((row) => row.domain);
    },

    /** Stores a probe's result and gives the lease back; verdict null keeps the previous one. */
    async recordProbe(
      instance: string,
      domain: string,
      result: { verdict: Verdict | null; evidence: VerdictEvidence; failed: boolean; nextProbeMs: number },
    ): Promise<void> {
      await database.query(
        `UPDATE domain_verdicts
         SET verdict = coalesce($3, verdict), evidence = $4::jsonb,
             failed_probes = CASE WHEN $5 THEN failed_probes + 1 ELSE 0 END,
             next_probe_at = now() + $6 * interval '1 millisecond',
             probing_by = NULL, probing_until = NULL, updated_at = now()
         WHERE domain = $1 AND probing_by = $2`,
        [
          domain,
          instance,
          result.verdict,
          JSON.stringify(result.evidence),
          result.failed,
          result.nextProbeMs,
        ],
      );
    },

    async failedProbes(domain: string): Promise<number> {
      const [row] = await database.query<{ failed_probes: number }>(
        "SELECT failed_probes FROM domain_verdicts WHERE domain = $1",
        [domain],
      );
      return row?.failed_probes ?? 0;
    },

    /** Makes rules follow the domain's verdict: learner-decided rules change service, users who
     * hinted the domain or sent it traffic in the last 30 days get a rule if they had none. */
    async applyVerdict(domain: string): Promise<void> {
      await database.query(
        `WITH v AS (
           SELECT domain, verdict FROM domain_verdicts WHERE domain = $1 AND verdict <> 'unknown'
         ), followed AS (
           UPDATE routing_rules r SET service = ${SERVICE_OF_VERDICT}, updated_at = now()
           FROM v WHERE r.rule = v.domain AND r.decided_by = 'learner' AND r.service <> ${SERVICE_OF_VERDICT}
         ), users AS (
           SELECT user_id FROM hostname_hints WHERE hostname = $1
           UNION
           SELECT user_id FROM usage_rollups
           WHERE day > (now() AT TIME ZONE 'UTC')::date - 30 AND ${COVERS("$1", "domain")}
         )
         INSERT INTO routing_rules (user_id, rule, service)
         SELECT users.user_id, v.domain, ${SERVICE_OF_VERDICT} FROM users CROSS JOIN v
         ON CONFLICT (user_id, rule) DO NOTHING`,
        [domain],
      );
    },

    /** Queues the domains customers sent the most bytes to over the last week (host names only). */
    async queueBusiestDomains(limit: number): Promise<void> {
      await database.query(
        `INSERT INTO domain_verdicts (domain)
         SELECT domain FROM usage_rollups
         WHERE day > (now() AT TIME ZONE 'UTC')::date - 7 AND domain ~ '\\.[a-z]{2,63}$'
         GROUP BY domain ORDER BY sum(bytes) DESC LIMIT $1
         ON CONFLICT (domain) DO NOTHING`,
        [limit],
      );
    },

    /** Connection outcomes of the last `windowMs` for each eligible domain (its subdomains
     * included), dc and mobile apart, with the accounts the datacenter failures came from. */
    async eligibleOutcomes(windowMs: number): Promise<OutcomeTotals[]> {
      return database.query<OutcomeTotals>(
        `WITH per_account AS (
           SELECT v.domain, o.proxy_type, o.account, sum(o.connections) AS connections, sum(${FAILURES}) AS failures
           FROM domain_verdicts v
           JOIN domain_outcomes o ON ${COVERS("v.domain", "o.domain")}
           WHERE v.verdict = 'eligible' AND o.minute >= now() - $1 * interval '1 millisecond'
           GROUP BY v.domain, o.proxy_type, o.account
         )
         SELECT domain,
           coalesce(sum(connections) FILTER (WHERE proxy_type = 'dc'), 0) AS dc_connections,
           coalesce(sum(failures) FILTER (WHERE proxy_type = 'dc'), 0) AS dc_failures,
           coalesce(sum(connections) FILTER (WHERE proxy_type = 'mobile'), 0) AS mobile_connections,
           coalesce(sum(failures) FILTER (WHERE proxy_type = 'mobile'), 0) AS mobile_failures,
           count(*) FILTER (WHERE proxy_type = 'dc' AND failures > 0 AND account <> '') AS dc_failing_accounts,
           coalesce(max(failures) FILTER (WHERE proxy_type = 'dc'), 0) AS dc_top_account_failures
         FROM per_account GROUP BY domain`,
        [windowMs],
      );
    },

    /** All datacenter connections and failures of the last `windowMs`, every domain. */
    async datacenterTotals(windowMs: number): Promise<{ connections: number; failures: number }> {
      const [row] = await database.query<{ connections: string; failures: string }>(
        `SELECT coalesce(sum(connections), 0) AS connections,
           coalesce(sum(dial_failures + resets + tls_cut + blocked_statuses), 0) AS failures
         FROM domain_outcomes WHERE proxy_type = 'dc' AND minute >= now() - $1 * interval '1 millisecond'`,
        [windowMs],
      );
      return { connections: Number(row?.connections ?? 0), failures: Number(row?.failures ?? 0) };
    },

    /** Gateway evidence can only ask for a probe: the eligible domain is due now, unless it was
     * probed within `quietMs` (the same failures do not buy a probe per tick). Only a probe's own
     * verdict changes what anyone pays. */
    async requestProbe(domain: string, quietMs: number): Promise<boolean> {
      const rows = await database.query(
        `UPDATE domain_verdicts SET next_probe_at = now(), updated_at = now()
         WHERE domain = $1 AND verdict = 'eligible' AND next_probe_at > now()
           AND (last_probe_at IS NULL OR last_probe_at <= now() - $2 * interval '1 millisecond')
         RETURNING domain`,
        [domain, quietMs],
      );
      return rows.length > 0;
    },

    async pruneOutcomes(keepMs: number): Promise<void> {
      await database.query(
        "DELETE FROM domain_outcomes WHERE minute < now() - $1 * interval '1 millisecond'",
        [keepMs],
      );
      await database.query("DELETE FROM learner_probe_log WHERE at < now() - interval '1 hour'");
    },
  };
}

export type IntelligenceRepository = ReturnType<typeof createIntelligenceRepository>;
