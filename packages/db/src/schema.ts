/**
 * Every table, by group, in one namespace: `schema.orders`, `schema.users`… (imports name this
 * file, never a group's). A group's file holds its tables and the CHECKs and indexes the
 * migrations give them; the migrations are the source of truth, these mirror them for queries.
 */
export * from "./schema/accounts.ts";
export * from "./schema/deals.ts";
export * from "./schema/destinations.ts";
export * from "./schema/jobs.ts";
export * from "./schema/network.ts";
export * from "./schema/operations.ts";
export * from "./schema/orders.ts";
export * from "./schema/second-factor.ts";
export * from "./schema/team.ts";
export * from "./schema/upstreams.ts";
export * from "./schema/usage.ts";
