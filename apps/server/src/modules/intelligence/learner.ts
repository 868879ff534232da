import { randomUUID } from "node:crypto";
import type { VerdictEvidence } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import type { ProbeScheme, Probes } from "@bytetoll/egress";
import type { FastifyBaseLogger } from "fastify";
import { createIntelligenceRepository } from "./repository.ts";
import { trafficSignal } from "./traffic-verdict.ts";
import { judgeProbe, type ProbeVerdict, type SchemeProbe } from "./verdict.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Timings and thresholds of the learner (decision 009); tests shorten the clock ones. */
export interface LearnerSettings {
  /** How often the loop looks for due domains and reads the gateway's outcomes. */
  tickMs: number;
  /** Domains probed at once by one instance. */
  concurrency: number;
  /** Probes made for one account's hints per hour at most; the learner's own schedule has none. */
  probesPerAccountHour: number;
  /** How long a claimed domain stays this instance's; longer than any probe takes. */
  leaseMs: number;
  /** Ports the front page is fetched on. */
  ports: Record<ProbeScheme, number>;
  /** A decided verdict is checked again after this long. */
  recheckMs: number;
  /** After a probe that could not compare the pools: the first retry, doubled per failure up to recheckMs. */
  retryMs: number;
  /** How often the busiest domains of the week are queued, and how many. */
  busiestEveryMs: number;
  busiestLimit: number;
  /** Gateway outcomes are judged over this window... */
  trafficWindowMs: number;
  /** ...once datacenter made at least this many connections to the domain... */
  trafficMinConnections: number;
  /** ...and probed again when its failure share is at least this, and this much above mobile's and
   * the rest of the datacenter pool's (a pool outage is not the sites' doing)... */
  trafficFailureRate: number;
  trafficMargin: number;
  /** ...and the failures came from at least this many accounts, none with more than this share. */
  trafficMinAccounts: number;
  trafficMaxAccountShare: number;
  /** A domain probed less than this long ago is not probed again for traffic evidence. */
  trafficReprobeQuietMs: number;
}

export const defaultLearnerSettings: LearnerSettings = {
  tickMs: 5_000,
  concurrency: 4,
  probesPerAccountHour: 60,
  leaseMs: 2 * MINUTE,
  ports: { http: 80, https: 443 },
  recheckMs: 24 * HOUR,
  retryMs: 10 * MINUTE,
  busiestEveryMs: 10 * MINUTE,
  busiestLimit: 50,
  trafficWindowMs: 10 * MINUTE,
  trafficMinConnections: 5,
  trafficFailureRate: 0.5,
  trafficMargin: 0.3,
  trafficMinAccounts: 3,
  trafficMaxAccountShare: 0.5,
  trafficReprobeQuietMs: 10 * MINUTE,
};

export interface LearnerOptions {
  database: Database;
  logger: FastifyBaseLogger;
  /** Absent: the learner only applies verdicts and traffic evidence, it probes nothing. */
  prober: Probes | null;
  settings?: Partial<LearnerSettings>;
}

/**
 * The Intelligence learner: a job of every server instance. Each tick it claims due domains
 * (a lease row, so one instance probes a given domain at a time), fetches their front page
 * through both pools, stores the verdict with its evidence, and makes rules follow. When the
 * gateway reports a domain's datacenter connections failing well above mobile ones and the rest of
 * the datacenter pool's, from several accounts, it probes the domain again: only its own probe
 * switches a rule off for everyone.
 */
export class Learner {
  readonly instance = randomUUID();
  settings: LearnerSettings;
  private readonly repository;
  private lastBusiest = 0;
  private lastPrune = 0;

  constructor(private readonly options: LearnerOptions) {
    this.settings = { ...defaultLearnerSettings, ...options.settings };
    this.repository = createIntelligenceRepository(options.database);
  }

  /** Replaces the prober or some settings; the tick's interval is read when the app gets ready. */
  configure(change: { prober?: Probes | null; settings?: Partial<LearnerSettings> }): void {
    if (change.prober !== undefined) this.options.prober = change.prober;
    this.settings = { ...this.settings, ...change.settings };
  }

  /** One round: queue the busiest domains now and then, probe what is due, judge traffic. */
  async tick(): Promise<void> {
    const now = Date.now();
    if (now - this.lastBusiest >= this.settings.busiestEveryMs) {
      this.lastBusiest = now;
      await this.repository.queueBusiestDomains(this.settings.busiestLimit);
    }
    if (now - this.lastPrune >= HOUR) {
      this.lastPrune = now;
      await this.repository.pruneOutcomes(24 * HOUR);
    }
    await this.judgeTraffic();
    if (!this.options.prober) return;
    const due = await this.repository.claimDue(
      this.instance,
      this.settings.concurrency,
      this.settings.leaseMs,
      this.settings.probesPerAccountHour,
    );
    await Promise.all(due.map((domain) => this.probeAndRecord(domain)));
  }

  private async probeAndRecord(domain: string): Promise<void> {
    const judged = await this.probe(domain);
    const evidence: VerdictEvidence = {
      source: "probe",
      signal: judged.signal,
      observations: judged.observations,
    };
    const inconclusive = judged.verdict === "unknown";
    const failures = inconclusive ? await this.repository.failedProbes(domain) : 0;
    const nextProbeMs = inconclusive
      ? Math.min(this.settings.retryMs * 2 ** failures, this.settings.recheckMs)
      : this.settings.recheckMs;
    await this.repository.recordProbe(this.instance, domain, {
      verdict: inconclusive ? null : judged.verdict,
      evidence,
      failed: inconclusive,
      nextProbeMs,
    });
    await this.repository.applyVerdict(domain);
    this.options.logger.info(
      { domain, verdict: judged.verdict, signal: judged.signal },
      "intelligence probe",
    );
  }

  /** Front page over http and https, each through the datacenter and the mobile pool at once. */
  async probe(domain: string): Promise<ProbeVerdict> {
    const prober = this.options.prober;
    if (!prober) return judgeProbe(domain, []);
    const schemes: ProbeScheme[] = ["http", "https"];
    const probes = await Promise.all(
      schemes.map(async (scheme): Promise<SchemeProbe> => {
        const port = this.settings.ports[scheme];
        const [dc, mobile] = await Promise.all([
          prober.fetch("dc", scheme, domain, port),
          prober.fetch("mobile", scheme, domain, port),
        ]);
        return { scheme, url: `${scheme}://${domain}:${port}/`, dc, mobile };
      }),
    );
    return judgeProbe(domain, probes);
  }

  /** Datacenter traffic failing well above mobile's and the rest of the pool's, for several
   * accounts, makes the domain due for a probe now; the probe decides. */
  private async judgeTraffic(): Promise<void> {
    const settings = this.settings;
    const pool = await this.repository.datacenterTotals(settings.trafficWindowMs);
    const thresholds = {
      minConnections: settings.trafficMinConnections,
      failureRate: settings.trafficFailureRate,
      margin: settings.trafficMargin,
      minAccounts: settings.trafficMinAccounts,
      maxAccountShare: settings.trafficMaxAccountShare,
    };
    for (const totals of await this.repository.eligibleOutcomes(settings.trafficWindowMs)) {
      const dc = { connections: Number(totals.dc_connections), failures: Number(totals.dc_failures) };
      const mobile = {
        connections: Number(totals.mobile_connections),
        failures: Number(totals.mobile_failures),
      };
      const rest = { connections: pool.connections - dc.connections, failures: pool.failures - dc.failures };
      const attribution = {
        accounts: Number(totals.dc_failing_accounts),
        topAccountFailures: Number(totals.dc_top_account_failures),
      };
      const signal = trafficSignal(
        { dc, mobile, attribution },
        rest,
        thresholds,
        Math.round(settings.trafficWindowMs / MINUTE),
      );
      if (!signal) continue;
      if (await this.repository.requestProbe(totals.domain, settings.trafficReprobeQuietMs)) {
        this.options.logger.info(
          { domain: totals.domain, signal },
          "intelligence: probing again from traffic",
        );
      }
    }
  }
}
