import { z } from "zod";
import { successEnvelope } from "./envelope.ts";
import {
  CITY_PATTERN,
  countryCodeProblem,
  SESSION_MINUTES_MAX,
  SESSION_MINUTES_MIN,
} from "./proxy-username.ts";

/**
 * docs/product.md#proxy-list: many proxy lines at once, to paste into a scraper or let a fleet
 * fetch (GET /credentials/proxy-list, or a revocable download URL that needs no sign-in).
 */
export const PROXY_LIST_FORMATS = ["host:port:user:pass", "user:pass@host:port", "url", "json"] as const;
export type ProxyListFormat = (typeof PROXY_LIST_FORMATS)[number];
export const PROXY_LIST_PROTOCOLS = ["http", "socks5"] as const;
export const PROXY_LIST_MAX_COUNT = 10_000;
export const PROXY_LIST_DEFAULT_COUNT = 10;

/** A query-string flag: true/false/1/0 (a link's stored options keep real booleans). */
const flag = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"], { error: "sticky must be true or false" })])
  .transform((value) => value === true || value === "true" || value === "1");

export const proxyListOptionsSchema = z
  .object({
    count: z.coerce
      .number({ error: "count must be a number" })
      .int("count must be a whole number")
      .min(1, "count must be from 1 to 10000")
      .max(PROXY_LIST_MAX_COUNT, "count must be from 1 to 10000")
      .default(PROXY_LIST_DEFAULT_COUNT),
    format: z
      .enum(PROXY_LIST_FORMATS, {
        error: "format must be host:port:user:pass, user:pass@host:port, url or json",
      })
      .default("host:port:user:pass"),
    protocol: z.enum(PROXY_LIST_PROTOCOLS, { error: "protocol must be http or socks5" }).default("http"),
    country: z
      .string()
      .refine((code) => countryCodeProblem(code) === null, "country must be an ISO 3166-1 alpha-2 code")
      .transform((code) => code.toUpperCase())
      .optional(),
    city: z.string().regex(CITY_PATTERN, "city must be 2–40 of a–z and _").optional(),
    sticky: flag.default(false),
    sesstime: z.coerce
      .number({ error: "sesstime must be a number" })
      .int("sesstime must be a whole number of minutes")
      .min(SESSION_MINUTES_MIN, `sesstime must be from ${SESSION_MINUTES_MIN} to ${SESSION_MINUTES_MAX}`)
      .max(SESSION_MINUTES_MAX, `sesstime must be from ${SESSION_MINUTES_MIN} to ${SESSION_MINUTES_MAX}`)
      .optional(),
    subuser_id: z.uuid("subuser_id must be a sub-user's id").optional(),
  })
  .strict();
export type ProxyListOptions = z.output<typeof proxyListOptionsSchema>;
/** What a client sends (the query string, or a download URL's body without its label). */
export interface ProxyListQuery {
  count?: number;
  format?: ProxyListFormat;
  protocol?: (typeof PROXY_LIST_PROTOCOLS)[number];
  country?: string;
  city?: string;
  sticky?: boolean;
  sesstime?: number;
  subuser_id?: string;
}

/** The options as validated (and as a download URL keeps them). */
export const proxyListSettingsSchema = z.object({
  count: z.number().int(),
  format: z.enum(PROXY_LIST_FORMATS),
  protocol: z.enum(PROXY_LIST_PROTOCOLS),
  country: z.string().optional(),
  city: z.string().optional(),
  sticky: z.boolean(),
  sesstime: z.number().int().optional(),
  subuser_id: z.string().optional(),
});

/** One line of the `json` format. */
export const proxyListEntrySchema = z.object({
  protocol: z.enum(PROXY_LIST_PROTOCOLS),
  host: z.string(),
  port: z.number().int(),
  username: z.string(),
  password: z.string(),
  url: z.string(),
});
export type ProxyListEntry = z.infer<typeof proxyListEntrySchema>;
export const proxyListJsonResponse = successEnvelope(z.array(proxyListEntrySchema));

/** A download URL: the list's options are fixed when it is minted; the secret is shown once. */
export const proxyListLinkRequestSchema = proxyListOptionsSchema.extend({
  label: z
    .string()
    .trim()
    .min(1, "label must not be empty")
    .max(60, "label is at most 60 characters")
    .optional(),
});
export type ProxyListLinkRequest = ProxyListQuery & { label?: string };

export const proxyListLinkSchema = z.object({
  id: z.string(),
  label: z.string().nullable(),
  options: proxyListSettingsSchema,
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ProxyListLink = z.infer<typeof proxyListLinkSchema>;
export const proxyListLinksResponse = successEnvelope(z.array(proxyListLinkSchema));
export const mintedProxyListLinkSchema = proxyListLinkSchema.extend({ url: z.string() });
export type MintedProxyListLink = z.infer<typeof mintedProxyListLinkSchema>;
export const mintedProxyListLinkResponse = successEnvelope(mintedProxyListLinkSchema);
export const proxyListLinkParams = z.object({ id: z.uuid("id must be a download URL's id") });
export const proxyListSharedParams = z.object({ secret: z.string().min(1).max(100) });

/** A host as it goes in a URL or after `@`: an IPv6 address in brackets. */
export const proxyUrlHost = (host: string) =>
  host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;

/** One line of a line format (the server's text/plain answer and the dashboard's preview agree). */
export function proxyListLine(entry: ProxyListEntry, format: Exclude<ProxyListFormat, "json">): string {
  if (format === "url") return entry.url;
  if (format === "user:pass@host:port")
    return `${entry.username}:${entry.password}@${proxyUrlHost(entry.host)}:${entry.port}`;
  return `${entry.host}:${entry.port}:${entry.username}:${entry.password}`;
}
