import { existsSync, readFileSync } from "node:fs";
import type { Database } from "@bytetoll/db";
import { createGateway, type Gateway, type GatewayConfig, loadGatewayConfig } from "@bytetoll/gateway";
import { pino } from "pino";
import type { Config } from "./config.ts";
import type { App } from "./types.ts";

/** GATEWAY_TLS_CERT/_KEY may hold the PEM itself or a path to it (as for the gateway alone). */
function pem(value: string): string {
  return value.includes("-----BEGIN") || !existsSync(value) ? value : readFileSync(value, "utf8");
}

const WILDCARD_BINDS = new Set(["0.0.0.0", "::", ""]);

export interface EmbeddedGatewayPlan {
  config: GatewayConfig;
  /** Where this process reaches its own gateway (the connection test dials it). */
  dialHost: string;
}

/**
 * The gateway `npm start` runs beside the API, on the same database. When IPINFO_URL is the
 * server's own /ipinfo on loopback, the egress guard must let the connection test reach it: only
 * the API's port is opened there, so databases and caches on loopback stay out of customers' reach.
 * Metrics go to the API's /metrics unless GATEWAY_METRICS_PORT asks for a listener of their own.
 */
export function planEmbeddedGateway(config: Config, env: NodeJS.ProcessEnv): EmbeddedGatewayPlan | null {
  if (config.GATEWAY_DISABLED) return null;
  const gatewayConfig = loadGatewayConfig(env);
  if (gatewayConfig.tls)
    gatewayConfig.tls = { cert: pem(gatewayConfig.tls.cert), key: pem(gatewayConfig.tls.key) };
  if (config.ipInfoIsBuiltIn) {
    gatewayConfig.egressAllowTargets = [
      ...gatewayConfig.egressAllowTargets,
      { cidr: "127.0.0.1/32", port: config.PORT },
      { cidr: "::1/128", port: config.PORT },
    ];
  }
  if (!env.GATEWAY_BIND && !config.isProduction) gatewayConfig.host = config.HOST;
  if (!env.GATEWAY_METRICS_PORT) gatewayConfig.metricsPort = null;
  if (!config.DATABASE_URL) gatewayConfig.dataDir = config.DATA_DIR;
  const bind = gatewayConfig.host;
  return { config: gatewayConfig, dialHost: WILDCARD_BINDS.has(bind) ? "127.0.0.1" : bind };
}

/** Creates the planned gateway and mounts its metrics on the app; call before app.listen(). */
export function createEmbeddedGateway(plan: EmbeddedGatewayPlan, app: App, database: Database): Gateway {
  const logger = pino({ name: "gateway", level: app.config.LOG_LEVEL });
  const gateway = createGateway({ database, config: plan.config, logger });
  if (plan.config.metricsPort === null) {
    app.get("/metrics", { schema: { hide: true } }, async (_request, reply) => {
      reply.type(gateway.metricsRegistry.contentType);
      return gateway.metricsRegistry.metrics();
    });
  }
  return gateway;
}
