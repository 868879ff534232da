import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import type { Database } from "@bytetoll/db";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { AccountDirectory } from "./accounts.ts";
import { Admission } from "./admission.ts";
import type { GatewayConfig } from "./config.ts";
import { createConnectRelay } from "./connect-relay.ts";
import { CREDENTIALS_CHANNEL } from "./credentials-channel.ts";
import { EgressGuard } from "./egress-guard.ts";
import { createHttpRelay } from "./http-relay.ts";
import { Meter, type ProxyType } from "./meter.ts";
import { createGatewayMetrics } from "./metrics.ts";
import { type Refusal, sendRawRefusal, sendRefusal } from "./refusal.ts";
import { selfSignedCertificate } from "./tls-certificate.ts";
import { UpstreamAgent } from "./upstream-agent.ts";
import { UpstreamPool } from "./upstreams.ts";
import { UsageFlusher } from "./usage-flusher.ts";

export interface Gateway {
  listen(): Promise<void>;
  /** Graceful: stop accepting, let live connections finish (up to the grace period), flush. */
  close(): Promise<void>;
  /** Flush metered usage now (tests and operators; the timer does it on its own). */
  flush(): Promise<boolean>;
  readonly httpPort: number;
  readonly httpsPort: number;
  readonly metricsPort: number | null;
  /** Prometheus registry, for a host process that mounts /metrics itself. */
  readonly metricsRegistry: Registry;
}

export interface GatewayOptions {
  database: Database;
  config: GatewayConfig;
  logger: Logger;
}

function portOf(server: http.Server | null): number {
  const address = server?.address();
  return address && typeof address === "object" ? (address as AddressInfo).port : 0;
}

function listenOn(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.removeListener("error", reject);
      resolve();
    });
  });
}

function closeServer(server: http.Server | null): Promise<void> {
  return new Promise((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));
}

export function createGateway({ database, config, logger }: GatewayOptions): Gateway {
  const ratio: Record<ProxyType, number> = { mobile: 1, dc: config.dcPricePerGbUsd / config.pricePerGbUsd };
  const accounts = new AccountDirectory(database, config.cacheTtlMs);
  let flusher: UsageFlusher | null = null;
  const metrics = createGatewayMetrics(() => flusher?.lagSeconds() ?? 0);
  const meter = new Meter({
    ratio,
    onBytes: (type, bytes) => (type === "mobile" ? metrics.bytesMobile : metrics.bytesDc).inc(bytes),
  });
  flusher = new UsageFlusher({
    database,
    meter,
    accounts,
    prices: config,
    ratio,
    metrics,
    logger,
  });
  const usage = flusher;

  let httpServer: http.Server | null = null;
  let httpsServer: https.Server | null = null;
  let metricsServer: http.Server | null = null;
  let flushTimer: NodeJS.Timeout | null = null;
  let redis: Redis | null = null;

  const guard = new EgressGuard({
    allow: config.egressAllow,
    resolveHost: config.resolveHost,
    ownPorts: () => [portOf(httpServer), portOf(httpsServer), portOf(metricsServer)].filter((p) => p > 0),
  });
  const admission = new Admission(accounts, guard, {
    mobile: new UpstreamPool(config.mobileUpstreams),
    dc: new UpstreamPool(config.datacenterUpstreams),
  });
  const counted = (refusal: Refusal) => {
    metrics.refusals.labels(refusal.code).inc();
    logger.debug({ code: refusal.code, reason: refusal.message }, "refused");
  };
  const agent = new UpstreamAgent();
  const onRequest = createHttpRelay({
    admission,
    meter,
    agent,
    metrics,
    logger,
    refuse: (res, refusal) => {
      counted(refusal);
      sendRefusal(res, refusal);
    },
  });
  const onConnect = createConnectRelay({
    admission,
    meter,
    metrics,
    logger,
    refuse: (socket, refusal) => {
      counted(refusal);
      sendRawRefusal(socket, refusal);
    },
  });

  function wire(server: http.Server, listener: "http" | "https"): void {
    server.keepAliveTimeout = 30_000;
    // Uploads through a proxy may legitimately take long; only the headers have a deadline.
    server.requestTimeout = 0;
    server.headersTimeout = 60_000;
    server.on("request", onRequest);
    server.on("connect", onConnect);
    server.on("connection", (socket: Socket) => {
      socket.setNoDelay(true);
      metrics.openConnections.labels(listener).inc();
      socket.once("close", () => metrics.openConnections.labels(listener).dec());
    });
    server.on("clientError", (_error, socket: Socket) => {
      if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
      else socket.destroy();
    });
  }

  async function listen(): Promise<void> {
    const tlsPair = config.tls ?? (await selfSignedCertificate(config.dataDir));
    httpServer = http.createServer();
    httpsServer = https.createServer({ cert: tlsPair.cert, key: tlsPair.key });
    wire(httpServer, "http");
    wire(httpsServer, "https");
    await listenOn(httpServer, config.httpPort, config.host);
    await listenOn(httpsServer, config.httpsPort, config.host);
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
    if (config.redisUrl) {
      redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
      redis.on("error", (error) => logger.warn({ err: error }, "redis subscription error"));
      redis.on("message", (_channel: string, username: string) => accounts.forget(username));
      await redis.subscribe(CREDENTIALS_CHANNEL);
    }
    flushTimer = setInterval(() => {
      usage.flush().catch((error: unknown) => logger.error({ err: error }, "flush crashed"));
    }, config.flushIntervalMs);
    logger.info(
      { httpPort: portOf(httpServer), httpsPort: portOf(httpsServer), metricsPort: portOf(metricsServer) },
      "gateway listening",
    );
  }

  async function close(): Promise<void> {
    const closing = [closeServer(httpServer), closeServer(httpsServer), closeServer(metricsServer)];
    httpServer?.closeIdleConnections();
    httpsServer?.closeIdleConnections();
    const deadline = Date.now() + config.shutdownGraceMs;
    while (meter.flows.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    for (const flow of [...meter.flows]) flow.abort();
    httpServer?.closeAllConnections();
    httpsServer?.closeAllConnections();
    agent.destroy();
    if (flushTimer) clearInterval(flushTimer);
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await usage.flush()) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    if (usage.pendingBatches() > 0) logger.error("gateway stopped with usage it could not commit");
    await redis?.quit().catch(() => {});
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
    get metricsPort() {
      return metricsServer ? portOf(metricsServer) : null;
    },
    metricsRegistry: metrics.registry,
  };
}
