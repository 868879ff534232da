export { type GatewayConfig, loadGatewayConfig } from "./config.ts";
export { CREDENTIALS_CHANNEL } from "./credentials-channel.ts";
export { createGateway, type Gateway, type GatewayOptions } from "./gateway.ts";
export { Prober, type ProbeResponse, type ProbeScheme } from "./probe.ts";
