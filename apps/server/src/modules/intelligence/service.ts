import {
  BYTES_PER_GB,
  bytesToGb,
  centsToUsd,
  parseHostnameLines,
  type RoutingRule,
  usdToCents,
  type VerdictEvidence,
} from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import type { Config } from "../../config.ts";
import { AppError, notFound } from "../../errors.ts";
import { createIntelligenceRepository, type RuleRow } from "./repository.ts";

export interface IntelligenceServiceOptions {
  database: Database;
  config: Pick<Config, "PRICE_PER_GB_USD" | "DC_PRICE_PER_GB_USD">;
}

const RULE_ID = /^[1-9][0-9]{0,17}$/;

/** What a customer sees of a verdict: the learner's probes as they were, but never a gateway
 * signal, whose figures are every customer's traffic (verdicts from before decision 025 rest on
 * one). */
function customerEvidence(evidence: VerdictEvidence | null): VerdictEvidence | null {
  if (evidence?.source !== "traffic") return evidence;
  return {
    source: "traffic",
    signal: "gateway: datacenter connections to this site failed well above mobile ones",
    observations: [],
  };
}

export function createIntelligenceService({ database, config }: IntelligenceServiceOptions) {
  const repository = createIntelligenceRepository(database);

  function toRule(row: RuleRow): RoutingRule {
    const dcBytes = Number(row.dc_bytes_30d);
    const lastProbe = row.last_probe_at === null ? null : new Date(row.last_probe_at).toISOString();
    return {
      id: Number(row.id),
      rule: row.rule,
      service: row.service,
      enabled: row.service === "datacenter",
      decided_by: row.decided_by,
      verdict: row.verdict ?? "unknown",
      last_probe_at: lastProbe,
      evidence: customerEvidence(row.evidence),
      dc_gb_30d: bytesToGb(dcBytes),
      override: row.override,
      // Cents, so 0.1 + 0.2 style noise never shows.
      saved_usd_30d: centsToUsd(
        usdToCents((dcBytes / BYTES_PER_GB) * (config.PRICE_PER_GB_USD - config.DC_PRICE_PER_GB_USD)),
      ),
    };
  }

  return {
    async hostnames(userId: string) {
      return repository.hostnames(userId);
    },

    /** Replaces the user's hints with the valid, de-duplicated bare host names of `lines`. */
    async saveHostnames(userId: string, lines: string[]) {
      const check = parseHostnameLines(lines);
      if (!check.ok) throw new AppError(400, check.message, "invalid_hostnames");
      await repository.replaceHostnames(userId, check.hostnames);
      return check.hostnames.map((hostname) => ({ hostname }));
    },

    async rules(userId: string): Promise<RoutingRule[]> {
      return (await repository.rules(userId)).map(toRule);
    },

    /** The user's toggle: on sends the domain over datacenter, off over mobile, whatever the
     * learner thinks; only the owner's rule ids exist for them. */
    async setEnabled(userId: string, id: string, enabled: boolean): Promise<RoutingRule> {
      if (!RULE_ID.test(id)) throw notFound("Routing rule not found");
      const row = await repository.setService(userId, id, enabled ? "datacenter" : "premium");
      if (!row) throw notFound("Routing rule not found");
      return toRule(row);
    },
  };
}

export type IntelligenceService = ReturnType<typeof createIntelligenceService>;
