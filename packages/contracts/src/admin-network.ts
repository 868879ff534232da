import { z } from "zod";
import { successEnvelope } from "./envelope.ts";
import { VERDICTS, verdictEvidenceSchema } from "./intelligence.ts";

/** The operator's network view: gateway instances, upstream exits and Intelligence's domains
 * (GET /admin/network, GET /admin/intelligence/domains, PUT …/override). */

export const UPSTREAM_POOLS = ["mobile", "dc"] as const;
export type UpstreamPoolName = (typeof UPSTREAM_POOLS)[number];

/** A gateway instance that wrote its heartbeat within the last minute. */
export const gatewayInstanceSchema = z.object({
  instance_id: z.string(),
  started_at: z.string(),
  /** When its last heartbeat was written (every few seconds). */
  updated_at: z.string(),
  /** Open client connections (both listeners, TLS handshakes included). */
  live_connections: z.number().int().nonnegative(),
  /** Metered bytes relayed per second over the last heartbeat interval. */
  bytes_per_second: z.number().nonnegative(),
  /** Age of the oldest metered byte not yet committed to the database. */
  flush_lag_seconds: z.number().nonnegative(),
  /** Refusals since the instance started, by reason (auth_required, account_disabled, …). */
  refusals: z.record(z.string(), z.number().int().nonnegative()),
});
export type GatewayInstance = z.infer<typeof gatewayInstanceSchema>;

/** up: every live instance that uses the exit can pick it; down: every one skips it; degraded:
 * some do (each instance judges from its own connect attempts); unknown: no live instance uses it
 * (it only appears in the last hour's figures). */
export const UPSTREAM_STATUSES = ["up", "degraded", "down", "unknown"] as const;
export type UpstreamStatus = (typeof UPSTREAM_STATUSES)[number];

/** One exit of one pool, over the last hour, all instances together. */
export const upstreamHealthSchema = z.object({
  pool: z.enum(UPSTREAM_POOLS),
  /** `direct`, or the exit's URL without credentials (`http://host:port`). */
  upstream_id: z.string(),
  status: z.enum(UPSTREAM_STATUSES),
  /** Instances that have it marked down right now. */
  down_on: z.array(z.string()),
  attempts: z.number().int().nonnegative(),
  /** Attempts the exit itself failed (unreachable, TLS or handshake failure, timeout); a target
   * that refused through a working exit is not the exit's failure. */
  failures: z.number().int().nonnegative(),
  /** (attempts - failures) / attempts; null without attempts. */
  success_rate: z.number().min(0).max(1).nullable(),
  /** Median time to a usable connection (through the exit's handshake), estimated from a
   * histogram; null without successful attempts. */
  median_connect_ms: z.number().nonnegative().nullable(),
  /** Metered bytes relayed through the exit. */
  bytes: z.number().int().nonnegative(),
});
export type UpstreamHealth = z.infer<typeof upstreamHealthSchema>;

export const adminNetworkResponse = successEnvelope(
  z.object({
    generated_at: z.string(),
    /** The figures of `upstreams` cover this many minutes up to generated_at. */
    window_minutes: z.number().int().positive(),
    instances: z.array(gatewayInstanceSchema),
    upstreams: z.array(upstreamHealthSchema),
  }),
);
export type AdminNetworkResponse = z.infer<typeof adminNetworkResponse>;

/** A global routing override of one domain (and the names below it): under -routing-smart every
 * customer's request goes over datacenter (`datacenter`) or mobile (`premium`), whatever their
 * rules and the learner's verdict say. null: no override. */
export const DOMAIN_OVERRIDES = ["datacenter", "premium"] as const;
export type DomainOverride = (typeof DOMAIN_OVERRIDES)[number];

export const adminDomainsQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    per_page: z.coerce.number().int().min(1).max(200).default(50),
    /** Substring of the domain, case-insensitive. */
    search: z.string().trim().max(253, "search is at most 253 characters").optional(),
    verdict: z.enum(VERDICTS, { error: "verdict must be eligible, blocked or unknown" }).optional(),
  })
  .strict();
export type AdminDomainsQuery = z.infer<typeof adminDomainsQuery>;

export const adminDomainSchema = z.object({
  domain: z.string(),
  verdict: z.enum(VERDICTS),
  override: z.enum(DOMAIN_OVERRIDES).nullable(),
  evidence: verdictEvidenceSchema.nullable(),
  last_probe_at: z.string().nullable(),
  next_probe_at: z.string(),
  /** Probes in a row that could not compare the pools. */
  failed_probes: z.number().int().nonnegative(),
  /** Customers with a routing rule for the domain. */
  rules: z.number().int().nonnegative(),
  updated_at: z.string(),
});
export type AdminDomain = z.infer<typeof adminDomainSchema>;

export const adminDomainsPage = z.object({
  success: z.literal(true),
  data: z.array(adminDomainSchema),
  page: z.number(),
  per_page: z.number(),
  total: z.number(),
});
export type AdminDomainsPage = z.infer<typeof adminDomainsPage>;

export const domainOverrideParams = z.object({ domain: z.string().max(253) });
export const domainOverrideBody = z
  .object({
    override: z
      .enum(DOMAIN_OVERRIDES, { error: 'override must be "datacenter", "premium" or null' })
      .nullable(),
  })
  .strict();
export type DomainOverrideBody = z.infer<typeof domainOverrideBody>;
export const adminDomainResponse = successEnvelope(adminDomainSchema);
