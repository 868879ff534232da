export { createGateway, type Gateway, type GatewayOptions } from "./gateway.ts";
export { gatewayHost } from "./host.ts";
export { Prober } from "./probe/probe.ts";
export { DestinationPolicy } from "./route/destination-policy.ts";
