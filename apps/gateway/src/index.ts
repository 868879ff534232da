export { type GatewayConfig, loadGatewayConfig } from "./config.ts";
export { createGateway, type Gateway, type GatewayOptions } from "./gateway.ts";
export { type ProbeResponse, Prober, type ProbeScheme } from "./probe.ts";
