import { z } from "zod";
import { successEnvelope } from "./envelope.ts";

/** Entries an account's IP allowlist may hold. */
export const ALLOWLIST_MAX_ENTRIES = 20;
/** The widest ranges an entry may be: wider ones would admit strangers as the account. */
export const ALLOWLIST_WIDEST_IPV4 = 24;
export const ALLOWLIST_WIDEST_IPV6 = 48;

/** GET /settings/allowlist: addresses (`203.0.113.7`, `2001:db8::1`) and ranges
 * (`203.0.113.0/24`) from which a connection without credentials is admitted as this account. */
export const allowlistSchema = z.object({
  ips: z.array(z.string()),
  /** The address this request came from, as the server sees it: one click adds it. */
  your_ip: z.string(),
});
export type Allowlist = z.infer<typeof allowlistSchema>;
export const allowlistResponse = successEnvelope(allowlistSchema);
export type AllowlistResponse = z.infer<typeof allowlistResponse>;

/** POST /settings/allowlist: the whole new list (it replaces the old one). */
export const allowlistRequestSchema = z.object({
  ips: z
    .array(
      z.string({ error: "each entry must be an address or a range" }).trim().max(64, "an entry is too long"),
      {
        error: "ips must be a list of addresses or ranges",
      },
    )
    .max(ALLOWLIST_MAX_ENTRIES, `At most ${ALLOWLIST_MAX_ENTRIES} addresses or ranges`),
});
export type AllowlistRequest = z.infer<typeof allowlistRequestSchema>;
