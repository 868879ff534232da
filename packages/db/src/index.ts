export * from "./after-commit.ts";
export * from "./changes.ts";
export * from "./client.ts";
export * from "./ledger.ts";
export * as schema from "./schema.ts";
export * from "./secrets.ts";
export * from "./upstream-key.ts";
