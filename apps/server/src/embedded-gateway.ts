import type { Database } from "@bytetoll/db";
import type { GatewayConfig, HostedGateway } from "@bytetoll/egress";
import type { Logger } from "pino";
import type { Config } from "./config.ts";
import type { App } from "./types.ts";

const WILDCARD_BINDS = new Set(["0.0.0.0", "::", ""]);

export interface EmbeddedGatewayPlan {
  config: GatewayConfig;
  /** Where this process reaches its own gateway (the connection test dials it). */
  dialHost: string;
}

/**
 * The gateway `npm start` runs beside the API, on the same database. The API's PORT is a port of
 * the gateway's own process (config.gateway's processPorts): never dialled, whatever EGRESS_ALLOW
 * says, so a customer cannot reach the API from the inside, where it would pass as loopback
 * (/metrics, the dev outbox, the loopback rate-limit bucket, a trusted X-Forwarded-For). Test
 * Connection's default target is answered by the gateway itself (decision 023). Metrics go to the
 * API's /metrics unless GATEWAY_METRICS_PORT asks for a listener of their own.
 */
export function planEmbeddedGateway(config: Config): EmbeddedGatewayPlan | null {
  if (config.GATEWAY_DISABLED) return null;
  // In development the gateway listens where the API does (loopback) unless GATEWAY_BIND says.
  const bindsWithTheApi = config.GATEWAY_BIND === undefined && !config.isProduction;
  const gatewayConfig: GatewayConfig = {
    ...config.gateway,
    host: bindsWithTheApi ? config.HOST : config.gateway.host,
    metricsPort: config.GATEWAY_METRICS_PORT === undefined ? null : config.gateway.metricsPort,
    dataDir: config.DATABASE_URL ? undefined : config.DATA_DIR,
    // The usage journal and this instance's id survive a restart in DATA_DIR, whatever database.
    stateDir: config.DATA_DIR,
    // The API seals console exits' passwords with the same key (decision 042).
    upstreamsKey: { secret: config.gateway.upstreamsKey?.secret, dir: config.DATA_DIR },
  };
  const bind = gatewayConfig.host;
  return { config: gatewayConfig, dialHost: WILDCARD_BINDS.has(bind) ? "127.0.0.1" : bind };
}

/** Creates the planned gateway and mounts its metrics on the app; call before app.listen(). */
export function createEmbeddedGateway(
  plan: EmbeddedGatewayPlan,
  app: App,
  database: Database,
): HostedGateway {
  if (!app.gatewayHost)
    throw new Error("the app was built without a gatewayHost: nothing to run the gateway with");
  // The server's own logger (its LOG_FORMAT and level), under the gateway's name.
  const logger = app.log.child({ name: "gateway" }) as Logger;
  const gateway = app.gatewayHost.createGateway({ database, config: plan.config, logger });
  if (plan.config.metricsPort === null) {
    app.get("/metrics", { schema: { hide: true } }, async (_request, reply) => {
      reply.type(gateway.metricsRegistry.contentType);
      return gateway.metricsRegistry.metrics();
    });
  }
  return gateway;
}
