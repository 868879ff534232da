export * from "./api-token.ts";
export * from "./auth.ts";
export * from "./common.ts";
export * from "./credentials.ts";
export { decodeDealId, encodeDealId } from "./deal-id.ts";
export * from "./dev-outbox.ts";
export * from "./envelope.ts";
export * from "./public-config.ts";
export * from "./usage.ts";
