import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { Database } from "@bytetoll/db";
import type { GatewayConfig } from "@bytetoll/egress";
import { EgressGuard } from "@bytetoll/egress";
import type { Logger } from "pino";
import type { AccountBalance } from "./admit/account-balance.ts";
import { AccountDirectory } from "./admit/accounts.ts";
import { Admission } from "./admit/admission.ts";
import { LiveCredentials } from "./admit/credentials-channel.ts";
import { IpAllowlist } from "./admit/ip-allowlist.ts";
import { BALANCE, Leases, SUBUSER_ALLOWANCE } from "./admit/lease.ts";
import { SubuserAllowance } from "./admit/subuser-allowance.ts";
import { createGatewayMetrics, type GatewayMetrics } from "./base/metrics.ts";
import { Tariff } from "./base/tariff.ts";
import { ReportHits } from "./billing/report-hits.ts";
import { UsageFlusher } from "./billing/usage-flusher.ts";
import { UsageJournal } from "./billing/usage-journal.ts";
import { reachExit } from "./dial/dial.ts";
import { ConnectionLimits } from "./front/connection-limits.ts";
import { Meter } from "./relay/meter.ts";
import { DestinationPolicy } from "./route/destination-policy.ts";
import { DomainOverrides } from "./route/domain-overrides.ts";
import { defaultHealthSettings, type Exit, type HealthSettings } from "./route/upstream-health.ts";
import { UpstreamPool } from "./route/upstream-pool.ts";

/** What metering and billing are made of: the leases of balances, the meter, the journal and
 * the flush that turns metered bytes into usage. */
export interface Billing {
  journal: UsageJournal | null;
  leases: Leases<AccountBalance>;
  subuserLeases: Leases<SubuserAllowance>;
  accounts: AccountDirectory;
  meter: Meter;
  usage: UsageFlusher;
  metrics: GatewayMetrics;
  /** What report rules let through, written at each flush for the abuse look-up. */
  reportHits: ReportHits;
}

export function createBilling(database: Database, config: GatewayConfig, logger: Logger): Billing {
  const tariff = new Tariff(config);
  const stateDir = config.stateDir === undefined ? undefined : join(config.stateDir, "gateway-usage");
  const journal = stateDir === undefined ? null : new UsageJournal(stateDir);
  for (const dir of config.adoptJournals ?? []) journal?.adopt(join(dir, "gateway-usage"));
  const instanceId = stateDir === undefined ? randomUUID() : UsageJournal.instanceId(stateDir);
  const leaseDeps = { database, instanceId, maxBytes: config.leaseMaxBytes, upkeepMs: config.cacheTtlMs };
  const leases = new Leases<AccountBalance>(BALANCE, (account) => account.userId, leaseDeps);
  const subuserLeases = new Leases<SubuserAllowance>(SUBUSER_ALLOWANCE, (s) => s.subuserId, leaseDeps);
  const accounts = new AccountDirectory(database, config.cacheTtlMs, leases, tariff, subuserLeases);
  const meter = new Meter({
    onLowLease: (account) =>
      account instanceof SubuserAllowance ? subuserLeases.spent(account) : leases.spent(account),
  });
  // The metrics read the flusher's lag, and the flusher counts its batches in the metrics.
  const late: { usage: UsageFlusher | null } = { usage: null };
  const metrics = createGatewayMetrics({
    lagSeconds: () => late.usage?.lagSeconds() ?? 0,
    takeBytes: () => meter.takeUnscraped(),
  });
  const usage = new UsageFlusher({
    database,
    meter,
    accounts,
    leases,
    subuserLeases,
    journal,
    tariff,
    metrics,
    logger,
  });
  late.usage = usage;
  const reportHits = new ReportHits(database, logger);
  return { journal, leases, subuserLeases, accounts, meter, usage, metrics, reportHits };
}

/** Who may go where and over which exit: the egress guard, the exits' pools, the credentials
 * and allowlist watched live, the connection caps, and the admission that asks them all. */
export interface Routing {
  guard: EgressGuard;
  live: LiveCredentials;
  pools: { mobile: UpstreamPool; dc: UpstreamPool };
  overrides: DomainOverrides;
  destinations: DestinationPolicy;
  allowlist: IpAllowlist;
  limits: ConnectionLimits;
  admission: Admission;
}

export function createRouting(
  database: Database,
  config: GatewayConfig,
  logger: Logger,
  { accounts, metrics, reportHits }: Pick<Billing, "accounts" | "metrics" | "reportHits">,
  settings: { upstreamHealth?: Partial<HealthSettings>; ownPorts: () => number[] },
): Routing {
  const guard = new EgressGuard({
    allow: config.egressAllow,
    allowTargets: config.egressAllowTargets,
    resolveHost: config.resolveHost,
    ownPorts: settings.ownPorts,
  });
  const live = new LiveCredentials();
  const health = { ...defaultHealthSettings, ...settings.upstreamHealth };
  const exitChanged = (exit: Exit) =>
    logger.warn(
      { pool: exit.pool, upstream: exit.id },
      exit.down ? "upstream marked down" : "upstream up again",
    );
  const pools = {
    mobile: new UpstreamPool("mobile", config.mobileUpstreams, health, exitChanged, reachExit),
    dc: new UpstreamPool("dc", config.datacenterUpstreams, health, exitChanged, reachExit),
  };
  const overrides = new DomainOverrides(database, logger);
  const destinations = new DestinationPolicy(database, logger, (rule, action, requester, host) => {
    metrics.destinationRuleHits.labels(String(rule.id), action).inc();
    if (action === "report" && requester)
      reportHits.record(rule.id, requester.userId, requester.subuserId, host);
  });
  const allowlist = new IpAllowlist(database, logger);
  const limits = new ConnectionLimits(config);
  const admission = new Admission(
    accounts,
    guard,
    pools,
    live,
    overrides,
    destinations,
    (client) => limits.authenticated(client),
    allowlist,
  );
  return { guard, live, pools, overrides, destinations, allowlist, limits, admission };
}
