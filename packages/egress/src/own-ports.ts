import type { GatewayConfig } from "./config.ts";

/** The ports a gateway's listeners are bound to, when they differ from the configured ones (a
 * configured 0 is any free port). */
export interface BoundPorts {
  http: number;
  https: number;
  socks: number | null;
  metrics: number | null;
}

/** Every port of this process that no request on a customer's behalf may reach — the gateway's
 * listeners (HTTP, TLS, SOCKS5), its metrics port and the process's other ports (the API's) — even
 * where EGRESS_ALLOW opens the address. The one list the gateway's egress guard, the webhook
 * target check and the learner's probe all use. */
export function gatewayOwnPorts(config: GatewayConfig, bound?: BoundPorts): number[] {
  const ports = bound ?? {
    http: config.httpPort,
    https: config.httpsPort,
    socks: config.socksPort,
    metrics: config.metricsPort,
  };
  return [ports.http, ports.https, ports.socks, ports.metrics, ...config.processPorts].filter(
    (port): port is number => port !== null && port > 0,
  );
}
