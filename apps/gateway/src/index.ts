export {
  ConfigError,
  checkGatewayEnv,
  type GatewayConfig,
  gatewayConfigFrom,
  gatewayEnvSchema,
  loadGatewayConfig,
  parseEnv,
  portNumber,
  urlWithProtocols,
} from "./config.ts";
export { EgressGuard, IP_INFO_HOST, type VettedTarget } from "./egress-guard.ts";
export { createGateway, type Gateway, type GatewayOptions } from "./gateway.ts";
export { type ProbeResponse, Prober, type ProbeScheme } from "./probe.ts";
export { Refusal } from "./refusal.ts";
export { CONNECT_MS_BOUNDS, histogramMedian } from "./upstream-health.ts";
