import {
  type AllowedDomains,
  DEFAULT_DESTINATION_RULE,
  type DestinationAction,
  DestinationMatcher,
  type DestinationRuleData,
} from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import { Refusal } from "@bytetoll/egress";
import type { Logger } from "pino";
import { FeedTable } from "../base/feed-table.ts";

/** Migration 0038's trigger announces any change to the rules as this payload. */
const RULES_CHANGED = "destination_rules";

/** Whose request it was: the account (customer) and, for a sub-user's credentials, the sub-user;
 * null for the learner's probes. */
export interface Requester {
  userId: string;
  subuserId: string | null;
}

/** Told of every rule that matched a request: the one that decided, and report rules met on the
 * way (the metrics count them by rule; report hits are kept for the abuse look-up). */
export type RuleHit = (
  rule: DestinationRuleData,
  action: DestinationAction,
  requester: Requester | null,
  host: string,
) => void;

/**
 * The operator's destination rules (docs/product.md#destination-policy), held in memory as a
 * compiled matcher and read again whenever the change feed announces a change (and when the feed
 * comes back after an outage), never per request. Until the first read succeeds the fresh-install
 * default applies, so a gateway that starts while the database is away still refuses mail ports.
 */
export class DestinationPolicy {
  private matcher = new DestinationMatcher([{ id: 0, ...DEFAULT_DESTINATION_RULE }]);
  private readonly table: FeedTable;

  constructor(
    database: Database,
    logger: Pick<Logger, "warn">,
    private readonly onHit: RuleHit = () => {},
  ) {
    this.table = new FeedTable({
      database,
      logger,
      what: "destination rules",
      announces: (payload) => payload === RULES_CHANGED,
      read: async () => {
        const rows = await database.query<DestinationRuleData>(
          `SELECT id::int AS id, action, domain, ports, customer_id::text AS customer_id, reason
             FROM destination_rules`,
        );
        this.matcher = new DestinationMatcher(rows.map((row) => ({ ...row, id: Number(row.id) })));
      },
    });
  }

  /** How many rules are loaded. */
  get size(): number {
    return this.matcher.size;
  }

  /**
   * Throws the refusal for a target the requester may not reach: first the sub-user's own list
   * (`allowed`, null: none), then the rules. `host` is the target as the egress guard names it
   * (lower-case name or canonical address), read before any DNS look-up.
   */
  check(requester: Requester | null, allowed: AllowedDomains | null, host: string, port: number): void {
    if (allowed && !allowed.allows(host)) {
      throw new Refusal(
        "destination_not_allowed",
        `This sub-user may only reach ${allowed.entries.join(", ")}; ${host} is not on its list`,
      );
    }
    const { decided, reported } = this.matcher.decide(requester?.userId ?? null, host, port);
    for (const rule of reported) this.onHit(rule, "report", requester, host);
    if (!decided) return;
    this.onHit(decided, decided.action, requester, host);
    if (decided.action === "block") throw new Refusal("destination_blocked", decided.reason);
  }

  start(): Promise<void> {
    return this.table.start();
  }

  stop(): Promise<void> {
    return this.table.stop();
  }
}
