import type { Database } from "@bytetoll/db";
import { schema } from "@bytetoll/db";
import type { Logger } from "pino";

/** Distinct (rule, day, credential, name) counts held between flushes; past it new ones are
 * dropped (and said in the log), so a client sending endless names cannot grow the memory. */
const MAX_PENDING = 10_000;

interface Hit {
  rule_id: number;
  day: string;
  user_id: string;
  subuser_id: string;
  domain: string;
  hits: number;
}

/**
 * What report rules let through (docs/product.md#destination-policy), counted in memory per rule,
 * UTC day, credential and target name, and added to destination_report_hits at each usage flush,
 * so the operator's abuse look-up lists it. A failed write keeps the counts for the next flush.
 */
export class ReportHits {
  private pending = new Map<string, Hit>();
  private dropped = 0;

  constructor(
    private readonly database: Database,
    private readonly logger: Pick<Logger, "warn">,
  ) {}

  record(ruleId: number, userId: string, subuserId: string | null, domain: string): void {
    const day = new Date().toISOString().slice(0, 10);
    const subuser = subuserId ?? schema.NO_SUBUSER;
    const key = `${ruleId} ${day} ${userId} ${subuser} ${domain}`;
    const known = this.pending.get(key);
    if (known) known.hits += 1;
    else if (this.pending.size < MAX_PENDING)
      this.pending.set(key, { rule_id: ruleId, day, user_id: userId, subuser_id: subuser, domain, hits: 1 });
    else this.dropped += 1;
  }

  async flush(): Promise<void> {
    if (this.dropped > 0) {
      this.logger.warn({ dropped: this.dropped }, "report-rule hits over the pending bound were not kept");
      this.dropped = 0;
    }
    if (this.pending.size === 0) return;
    const taken = this.pending;
    this.pending = new Map();
    try {
      await this.database.query(
        `INSERT INTO destination_report_hits AS h (rule_id, day, user_id, subuser_id, domain, hits)
         SELECT rule_id, day, user_id, subuser_id, domain, hits
           FROM jsonb_to_recordset($1::jsonb)
             AS x(rule_id bigint, day date, user_id uuid, subuser_id uuid, domain text, hits bigint)
          -- An account deleted since its hit was counted takes its hits with it.
          WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = x.user_id)
          ORDER BY rule_id, day, user_id, subuser_id, domain
         ON CONFLICT (rule_id, day, user_id, subuser_id, domain) DO UPDATE SET hits = h.hits + EXCLUDED.hits`,
        [JSON.stringify([...taken.values()])],
      );
    } catch (error) {
      this.logger.warn({ err: error }, "report-rule hits not written; kept for the next flush");
      for (const [key, hit] of taken) {
        const known = this.pending.get(key);
        if (known) known.hits += hit.hits;
        else this.pending.set(key, hit);
      }
    }
  }
}
