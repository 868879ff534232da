import type { Database } from "@bytetoll/db";
import { createGateway, type Gateway, type GatewayConfig, loadGatewayConfig } from "@bytetoll/gateway";
import { pino } from "pino";

/**
 * A real gateway on loopback ports chosen by the OS, allowed to reach test origins on 127.0.0.1,
 * without its metrics listener; `overrides` change any of its settings.
 */
export async function startTestGateway(
  database: Database,
  overrides: Partial<GatewayConfig> = {},
): Promise<Gateway> {
  const config = loadGatewayConfig({
    GATEWAY_BIND: "127.0.0.1",
    GATEWAY_HTTP_PORT: "0",
    GATEWAY_HTTPS_PORT: "0",
    GATEWAY_METRICS_PORT: "off",
    EGRESS_ALLOW: "127.0.0.1/32",
  });
  const gateway = createGateway({
    database,
    config: { ...config, dataDir: undefined, shutdownGraceMs: 200, ...overrides },
    logger: pino({ level: "silent" }),
  });
  await gateway.listen();
  return gateway;
}
