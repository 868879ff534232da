import { type Database, upstreamsKey } from "@bytetoll/db";
import type { GatewayConfig } from "@bytetoll/egress";
import { gatewayOwnPorts } from "@bytetoll/egress";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { watchAccountChanges } from "./admit/account-changes.ts";
import { watchCredentialChanges } from "./admit/credentials-channel.ts";
import { watchRoutingRules } from "./admit/routing-rules.ts";
import { selfSignedCertificate } from "./base/tls-certificate.ts";
import { HEARTBEAT_INTERVAL_MS, NetworkReport } from "./billing/network-report.ts";
import { JOURNAL_INTERVAL_MS } from "./billing/usage-journal.ts";
import { chooseTunnelRelay } from "./dial/native-splice.ts";
import { TargetPool } from "./dial/target-pool.ts";
import { Listeners } from "./front/listeners.ts";
import { type Billing, createBilling, createRouting, type Routing } from "./gateway-parts.ts";
import { ConnectionOutcomes } from "./relay/outcomes.ts";
import type { SessionDeps } from "./relay/session-deps.ts";
import { ConsoleExits } from "./route/console-exits.ts";
import type { HealthSettings } from "./route/upstream-health.ts";

export interface Gateway {
  listen(): Promise<void>;
  /** Graceful: stop accepting, let live connections finish (up to the grace period), flush. */
  close(): Promise<void>;
  /** Flush metered usage now (tests and operators; the timer does it on its own). */
  flush(): Promise<boolean>;
  readonly httpPort: number;
  readonly httpsPort: number;
  /** The SOCKS5 listener's port; null when it is off. */
  readonly socksPort: number | null;
  readonly metricsPort: number | null;
  /** The ports the splice addon accepts on (the native front door): "http", "socks". */
  readonly nativePorts: string[];
  /** Bytes this instance metered since it started (committed or not). */
  readonly meteredBytes: number;
  /** Prometheus registry, for a host process that mounts /metrics itself. */
  readonly metricsRegistry: Registry;
}

export interface GatewayOptions {
  database: Database;
  config: GatewayConfig;
  logger: Logger;
  /** How often the instance writes its heartbeat and its exits' figures (tests shorten it). */
  heartbeatMs?: number;
  /** When an exit is marked down and retried (tests shorten the back-off). */
  upstreamHealth?: Partial<HealthSettings>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function networkReport(
  options: GatewayOptions,
  billing: Billing,
  routing: Routing,
  listeners: () => Listeners,
): NetworkReport {
  const { metrics, meter, usage } = billing;
  return new NetworkReport({
    database: options.database,
    instanceId: billing.leases.instanceId,
    pools: [routing.pools.mobile, routing.pools.dc],
    sources: {
      liveConnections: () => listeners().clients.size,
      relayedBytes: () => meter.relayed,
      flushLagSeconds: () => usage.lagSeconds(),
      refusals: async () => {
        const counted = await metrics.refusals.get();
        return Object.fromEntries(counted.values.map((v) => [String(v.labels.reason), v.value]));
      },
      served: async () => metrics.requestsOf.http.value + metrics.requestsOf.connect.value,
    },
    logger: options.logger,
    intervalMs: options.heartbeatMs ?? HEARTBEAT_INTERVAL_MS,
  });
}

/**
 * One gateway instance: its parts (billing, routing, outcomes, the network report) are made
 * here, its listeners hand each connection to a front-end, and the steps every request takes
 * (admit → route → dial → relay → meter → outcome) are shared through SessionDeps.
 */
export function createGateway(options: GatewayOptions): Gateway {
  const { database, config, logger } = options;
  const billing = createBilling(database, config, logger);
  // Read once after listen(): the guard checks them on every request.
  let ownPorts: number[] = [];
  const routing = createRouting(database, config, logger, billing, {
    upstreamHealth: options.upstreamHealth,
    ownPorts: () => ownPorts,
  });
  const outcomes = new ConnectionOutcomes(database, logger);
  const pool = new TargetPool();
  const deps: SessionDeps = {
    admission: routing.admission,
    meter: billing.meter,
    pool,
    metrics: billing.metrics,
    logger,
    outcomes,
    headTimeoutMs: config.headTimeoutMs,
    originCa: config.originCa,
  };
  const listeners = new Listeners(config, deps, routing.limits, billing.metrics);
  const report = networkReport(options, billing, routing, () => listeners);
  const watchers = new Watchers(database, billing, routing, logger, config);
  const timers = new BillingTimers(billing, config, logger);

  async function listen(): Promise<void> {
    await watchers.start();
    outcomes.start();
    report.start();
    // Chosen before the first connection is accepted: every tunnel is relayed the same way.
    const tunnels = chooseTunnelRelay(config.splice);
    await listeners.listen(
      config.tls ?? (await selfSignedCertificate(config.dataDir)),
      billing.metrics.registry,
    );
    const ports = listeners.ports;
    ownPorts = gatewayOwnPorts(config, ports);
    timers.start();
    const listening = { httpPort: ports.http, httpsPort: ports.https, socksPort: ports.socks ?? "off" };
    const frontDoor = listeners.nativePorts.join(", ") || "node";
    logger.info({ ...listening, metricsPort: ports.metrics ?? 0, tunnels, frontDoor }, "gateway listening");
  }

  async function close(): Promise<void> {
    const closing = listeners.close();
    const deadline = Date.now() + config.shutdownGraceMs;
    while (billing.meter.flows.size > 0 && Date.now() < deadline) await pause(25);
    for (const flow of [...billing.meter.flows]) flow.abort();
    for (const socket of listeners.clients) socket.destroy();
    pool.destroy();
    timers.stop();
    await settleUsage(billing, logger);
    await watchers.stop();
    await outcomes.stop();
    await report.stop();
    await closing;
  }

  return handle(listeners, billing, listen, close);
}

function handle(
  listeners: Listeners,
  billing: Billing,
  listen: () => Promise<void>,
  close: () => Promise<void>,
): Gateway {
  return {
    listen,
    close,
    flush: async () => {
      await billing.reportHits.flush();
      return billing.usage.flush();
    },
    get httpPort() {
      return listeners.ports.http;
    },
    get httpsPort() {
      return listeners.ports.https;
    },
    get socksPort() {
      return listeners.ports.socks;
    },
    get metricsPort() {
      return listeners.ports.metrics;
    },
    get nativePorts() {
      return listeners.nativePorts;
    },
    get meteredBytes() {
      return billing.meter.relayed;
    },
    metricsRegistry: billing.metrics.registry,
  };
}

/** At shutdown: what was metered is committed (three tries), then the leases go back to the
 * shared balances; usage that could not be committed stays in the journal for the next start. */
async function settleUsage({ usage, leases, subuserLeases, journal, reportHits }: Billing, logger: Logger) {
  await reportHits.flush();
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await usage.flush()) break;
    await pause(200);
  }
  if (usage.pendingBatches() > 0) logger.error("gateway stopped with usage it could not commit");
  else
    await Promise.all([leases.releaseAll(), subuserLeases.releaseAll()]).catch((error: unknown) =>
      logger.warn({ err: error }, "leases not given back"),
    );
  journal?.close();
}

/** The flush of metered usage every flushIntervalMs, and the journal's write-ahead every
 * JOURNAL_INTERVAL_MS when there is a journal. */
class BillingTimers {
  private flushTimer: NodeJS.Timeout | null = null;
  private journalTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly billing: Billing,
    private readonly config: GatewayConfig,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const { usage, journal } = this.billing;
    this.flushTimer = setInterval(() => {
      usage.flush().catch((error: unknown) => this.logger.error({ err: error }, "flush crashed"));
      void this.billing.reportHits.flush();
    }, this.config.flushIntervalMs);
    if (journal) this.journalTimer = setInterval(() => usage.journal(), JOURNAL_INTERVAL_MS);
  }

  stop(): void {
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.journalTimer) clearInterval(this.journalTimer);
  }
}

/** The change feeds every instance follows: routing rules, credentials (a changed or deleted
 * one is forgotten and its connections closed), accounts (a disabled one is refused and its
 * connections closed), domain overrides, destination rules, IP allowlists and the console's exits. */
class Watchers {
  private stops: Array<() => Promise<void>> = [];

  constructor(
    private readonly database: Database,
    private readonly billing: Billing,
    private readonly routing: Routing,
    private readonly logger: Logger,
    private readonly config: GatewayConfig,
  ) {}

  async start(): Promise<void> {
    const { database, routing, logger } = this;
    const { accounts } = this.billing;
    this.stops.push(await watchRoutingRules(database, accounts));
    await routing.overrides.start();
    this.stops.push(() => routing.overrides.stop());
    await routing.destinations.start();
    this.stops.push(() => routing.destinations.stop());
    this.stops.push(
      await watchCredentialChanges(database, (username) => {
        accounts.forget(username);
        routing.live.revoke(username);
      }),
    );
    this.stops.push(await watchAccountChanges(database, accounts, logger));
    const exits = new ConsoleExits({
      database,
      pools: routing.pools,
      key: upstreamsKey(
        this.config.upstreamsKey?.secret,
        this.config.upstreamsKey?.dir ?? this.config.stateDir,
      ),
      trust: this.config.upstreamCa === undefined ? {} : { ca: this.config.upstreamCa },
      logger,
    });
    await exits.start();
    this.stops.push(() => exits.stop());
    await routing.allowlist.start();
    this.stops.push(() => routing.allowlist.stop());
  }

  async stop(): Promise<void> {
    for (const stop of this.stops.splice(0)) await stop();
  }
}
