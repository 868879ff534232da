import { randomUUID } from "node:crypto";
import http from "node:http";
import net, { type AddressInfo, type Socket } from "node:net";
import { join } from "node:path";
import tls from "node:tls";
import type { Database } from "@bytetoll/db";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import type { AccountBalance } from "./account-balance.ts";
import { watchAccountChanges } from "./account-changes.ts";
import { AccountDirectory } from "./accounts.ts";
import { Admission } from "./admission.ts";
import { serveClient } from "./client-session.ts";
import type { GatewayConfig } from "./config.ts";
import { ConnectionLimits } from "./connection-limits.ts";
import { LiveCredentials, watchCredentialChanges } from "./credentials-channel.ts";
import { reachExit } from "./dial.ts";
import { DomainOverrides } from "./domain-overrides.ts";
import { EgressGuard } from "./egress-guard.ts";
import { IpAllowlist } from "./ip-allowlist.ts";
import { BALANCE, Leases, SUBUSER_ALLOWANCE } from "./lease.ts";
import { Meter } from "./meter.ts";
import { createGatewayMetrics } from "./metrics.ts";
import { chooseTunnelRelay } from "./native-splice.ts";
import { HEARTBEAT_INTERVAL_MS, NetworkReport } from "./network-report.ts";
import { ConnectionOutcomes } from "./outcomes.ts";
import { Refusal, refuseConnection } from "./refusal.ts";
import { watchRoutingRules } from "./routing-rules.ts";
import { serveSocksClient } from "./socks-session.ts";
import { SubuserAllowance } from "./subuser-allowance.ts";
import { TargetPool } from "./target-pool.ts";
import { Tariff } from "./tariff.ts";
import { selfSignedCertificate } from "./tls-certificate.ts";
import { defaultHealthSettings, type Exit, type HealthSettings } from "./upstream-health.ts";
import { UpstreamPool } from "./upstream-pool.ts";
import { UsageFlusher } from "./usage-flusher.ts";
import { JOURNAL_INTERVAL_MS, UsageJournal } from "./usage-journal.ts";

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

function portOf(server: net.Server | null): number {
  const address = server?.address();
  return address && typeof address === "object" ? (address as AddressInfo).port : 0;
}

function listenOn(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.removeListener("error", reject);
      resolve();
    });
  });
}

/** What OpenSSL calls a plain HTTP request (GET …, CONNECT …) where a TLS handshake belongs. */
const PLAIN_HTTP_ON_TLS = new Set(["ERR_SSL_HTTP_REQUEST", "ERR_SSL_HTTPS_PROXY_REQUEST"]);

/** A client socket's errors end it (Node destroys it); there is nobody else to tell. */
const ignoreError = () => {};

function closeServer(server: net.Server | null): Promise<void> {
  return new Promise((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));
}

export function createGateway({
  database,
  config,
  logger,
  heartbeatMs = HEARTBEAT_INTERVAL_MS,
  upstreamHealth,
}: GatewayOptions): Gateway {
  const tariff = new Tariff(config);
  const stateDir = config.stateDir === undefined ? undefined : join(config.stateDir, "gateway-usage");
  const journal = stateDir === undefined ? null : new UsageJournal(stateDir);
  const leaseDeps = {
    database,
    instanceId: stateDir === undefined ? randomUUID() : UsageJournal.instanceId(stateDir),
    maxBytes: config.leaseMaxBytes,
    upkeepMs: config.cacheTtlMs,
  };
  const leases = new Leases<AccountBalance>(BALANCE, (account) => account.userId, leaseDeps);
  const subuserLeases = new Leases<SubuserAllowance>(SUBUSER_ALLOWANCE, (s) => s.subuserId, leaseDeps);
  const accounts = new AccountDirectory(database, config.cacheTtlMs, leases, tariff, subuserLeases);
  const meter = new Meter({
    onLowLease: (account) =>
      account instanceof SubuserAllowance ? subuserLeases.spent(account) : leases.spent(account),
  });
  let flusher: UsageFlusher | null = null;
  const metrics = createGatewayMetrics({
    lagSeconds: () => flusher?.lagSeconds() ?? 0,
    takeBytes: () => meter.takeUnscraped(),
  });
  flusher = new UsageFlusher({
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
  const usage = flusher;

  let httpServer: net.Server | null = null;
  let httpsServer: tls.Server | null = null;
  let socksServer: net.Server | null = null;
  const clients = new Set<Socket>();
  /** 8443's TCP sockets by peer until TLS is set up over them (Node does not say which TLS
   * socket wraps which TCP socket). */
  const handshaking = new Map<string, Socket>();
  /** Read once after listen(): the guard checks them on every request. */
  let ownPorts: number[] = [];
  let metricsServer: http.Server | null = null;
  let flushTimer: NodeJS.Timeout | null = null;
  let journalTimer: NodeJS.Timeout | null = null;
  let stopWatchingCredentials: (() => Promise<void>) | null = null;
  let stopWatchingAccounts: (() => Promise<void>) | null = null;

  const guard = new EgressGuard({
    allow: config.egressAllow,
    allowTargets: config.egressAllowTargets,
    resolveHost: config.resolveHost,
    ownPorts: () => ownPorts,
  });
  const liveCredentials = new LiveCredentials();
  const health = { ...defaultHealthSettings, ...upstreamHealth };
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
  const allowlist = new IpAllowlist(database, logger);
  const admission = new Admission(
    accounts,
    guard,
    pools,
    liveCredentials,
    overrides,
    (client) => limits.authenticated(client),
    allowlist,
  );
  const pool = new TargetPool();
  const outcomes = new ConnectionOutcomes(database, logger);
  let stopWatchingRoutingRules: (() => Promise<void>) | null = null;
  const sessionDeps = {
    admission,
    meter,
    pool,
    metrics,
    logger,
    outcomes,
    headTimeoutMs: config.headTimeoutMs,
    originCa: config.originCa,
  };
  const limits = new ConnectionLimits(config);
  const report = new NetworkReport({
    database,
    instanceId: leases.instanceId,
    pools: [pools.mobile, pools.dc],
    sources: {
      liveConnections: () => clients.size,
      relayedBytes: () => meter.relayed,
      flushLagSeconds: () => usage.lagSeconds(),
      refusals: async () => {
        const counted = await metrics.refusals.get();
        return Object.fromEntries(counted.values.map((v) => [String(v.labels.reason), v.value]));
      },
      served: async () => {
        const counted = await metrics.requests.get();
        return counted.values.reduce((total, v) => total + v.value, 0);
      },
    },
    logger,
    intervalMs: heartbeatMs,
  });

  /** Counts a new client connection, or turns it away (false) when a connection limit is
   * reached: on 8080 with a 503, on 8443 (before any TLS) by closing it. */
  function track(socket: Socket, listener: "http" | "https" | "socks"): boolean {
    // From the moment it exists: a reset (read ECONNRESET) on a socket nobody listens to for
    // errors is an uncaught exception, and that stops API, dashboard and gateway alike.
    socket.on("error", ignoreError);
    // Until its TLS socket is known (limits.link), a TLS connection is cut the way TLS hears of a
    // failed TCP socket, an error on it: destroying the TCP socket under TLS is unsafe.
    const cut = () =>
      listener === "https" ? socket.emit("error", new Error("connection cut")) : socket.destroy();
    const connection = limits.admit(socket, cut);
    if (!connection) {
      metrics.refusals.labels("too_many_connections").inc();
      if (listener === "http")
        refuseConnection(socket, new Refusal("too_many_connections", "Too many open connections"));
      else cut();
      return false;
    }
    socket.setNoDelay(true);
    metrics.openConnections.labels(listener).inc();
    clients.add(socket);
    socket.once("close", () => {
      clients.delete(socket);
      metrics.openConnections.labels(listener).dec();
    });
    return true;
  }

  async function listen(): Promise<void> {
    // A changed or deleted credential is forgotten and its connections closed, on every instance.
    stopWatchingRoutingRules = await watchRoutingRules(database, accounts);
    outcomes.start();
    report.start();
    await overrides.start();
    stopWatchingCredentials = await watchCredentialChanges(database, (username) => {
      accounts.forget(username);
      liveCredentials.revoke(username);
    });
    // A disabled account is refused and its connections closed, on every instance.
    stopWatchingAccounts = await watchAccountChanges(database, accounts, logger);
    // Connections without credentials from an allowlisted address, on every instance.
    await allowlist.start();
    const tlsPair = config.tls ?? (await selfSignedCertificate(config.dataDir));
    httpServer = net.createServer((socket) => {
      if (track(socket, "http")) serveClient(socket, sessionDeps);
    });
    httpsServer = tls.createServer(
      {
        cert: tlsPair.cert,
        key: tlsPair.key,
        ALPNProtocols: ["http/1.1"],
        handshakeTimeout: config.headTimeoutMs,
      },
      (socket) => {
        const tcp = handshaking.get(`${socket.remoteAddress} ${socket.remotePort}`);
        if (tcp) limits.link(socket, tcp);
        serveClient(socket, sessionDeps);
      },
    );
    // Counted at TCP level so handshakes in progress show up as connections too.
    httpsServer.on("connection", (socket: Socket) => {
      if (!track(socket, "https")) return;
      const key = `${socket.remoteAddress} ${socket.remotePort}`;
      handshaking.set(key, socket);
      socket.once("close", () => handshaking.delete(key));
    });
    // A failed or timed-out handshake ends the connection. A plain proxy request sent to the TLS
    // port is told so at once, in plain HTTP on the TCP socket under the failed TLS.
    httpsServer.on("tlsClientError", (error: NodeJS.ErrnoException, socket) => {
      const tcp = handshaking.get(`${socket.remoteAddress} ${socket.remotePort}`);
      if (tcp && PLAIN_HTTP_ON_TLS.has(error.code ?? "")) {
        metrics.refusals.labels("bad_request").inc();
        const port = portOf(httpServer);
        refuseConnection(
          tcp,
          new Refusal("bad_request", `This port speaks TLS: send plain proxy requests to port ${port}`),
        );
        return;
      }
      socket.destroy();
    });
    await listenOn(httpServer, config.httpPort, config.host);
    await listenOn(httpsServer, config.httpsPort, config.host);
    if (config.socksPort !== null) {
      socksServer = net.createServer((socket) => {
        if (track(socket, "socks")) serveSocksClient(socket, sessionDeps);
      });
      await listenOn(socksServer, config.socksPort, config.host);
    }
    if (config.metricsPort !== null) {
      metricsServer = http.createServer((req, res) => {
        if (req.method === "GET" && req.url === "/metrics") {
          metrics.registry.metrics().then(
            (text) => res.writeHead(200, { "Content-Type": metrics.registry.contentType }).end(text),
            () => res.writeHead(500).end(),
          );
          return;
        }
        res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
      });
      await listenOn(metricsServer, config.metricsPort, config.host);
    }
    ownPorts = [
      portOf(httpServer),
      portOf(httpsServer),
      portOf(socksServer),
      portOf(metricsServer),
      ...config.processPorts,
    ].filter((p) => p > 0);
    flushTimer = setInterval(() => {
      usage.flush().catch((error: unknown) => logger.error({ err: error }, "flush crashed"));
    }, config.flushIntervalMs);
    if (journal) journalTimer = setInterval(() => usage.journal(), JOURNAL_INTERVAL_MS);
    const tunnels = chooseTunnelRelay(config.splice);
    logger.info(
      {
        httpPort: portOf(httpServer),
        httpsPort: portOf(httpsServer),
        socksPort: socksServer ? portOf(socksServer) : "off",
        metricsPort: portOf(metricsServer),
        tunnels,
      },
      "gateway listening",
    );
  }

  async function close(): Promise<void> {
    const closing = [
      closeServer(httpServer),
      closeServer(httpsServer),
      closeServer(socksServer),
      closeServer(metricsServer),
    ];
    const deadline = Date.now() + config.shutdownGraceMs;
    while (meter.flows.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    for (const flow of [...meter.flows]) flow.abort();
    for (const socket of clients) socket.destroy();
    pool.destroy();
    if (flushTimer) clearInterval(flushTimer);
    if (journalTimer) clearInterval(journalTimer);
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await usage.flush()) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    if (usage.pendingBatches() > 0) logger.error("gateway stopped with usage it could not commit");
    else
      await Promise.all([leases.releaseAll(), subuserLeases.releaseAll()]).catch((error: unknown) =>
        logger.warn({ err: error }, "leases not given back"),
      );
    journal?.close();
    await stopWatchingCredentials?.();
    await stopWatchingAccounts?.();
    await allowlist.stop();
    await stopWatchingRoutingRules?.();
    await outcomes.stop();
    await report.stop();
    await overrides.stop();
    await Promise.all(closing);
  }

  return {
    listen,
    close,
    flush: () => usage.flush(),
    get httpPort() {
      return portOf(httpServer);
    },
    get httpsPort() {
      return portOf(httpsServer);
    },
    get socksPort() {
      return socksServer ? portOf(socksServer) : null;
    },
    get metricsPort() {
      return metricsServer ? portOf(metricsServer) : null;
    },
    metricsRegistry: metrics.registry,
  };
}
