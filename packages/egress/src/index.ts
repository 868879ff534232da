// What the gateway and the server share: the gateway's settings read from the environment, the
// egress guard, addresses and ranges, exits (upstream URLs and their templates), and refusals.
export * from "./config.ts";
export * from "./connect-histogram.ts";
export * from "./console-exit-spec.ts";
export * from "./egress-guard.ts";
export { type Env, listOf, positiveNumber, readWith, refuse } from "./env-parsing.ts";
export type * from "./host.ts";
export * from "./ip-address.ts";
export * from "./own-ports.ts";
export * from "./probes.ts";
export * from "./refusal.ts";
export * from "./upstreams.ts";
