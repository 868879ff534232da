import { z } from "zod";
import { successEnvelope } from "./envelope.ts";

/** Entries an account's IP allowlist may hold. */
export const ALLOWLIST_MAX_ENTRIES = 20;
/** The widest ranges an entry may be: wider ones would admit strangers as the account. */
export const ALLOWLIST_WIDEST_IPV4 = 24;
export const ALLOWLIST_WIDEST_IPV6 = 48;

/** GET /settings/allowlist: addresses (`203.0.113.7`, `2001:db8::1`) and ranges
 * (`203.0.113.0/24`) from which a connection without credentials is admitted as this account. */
/** An entry that does not take effect yet: it waits to be proven from an address it holds, by
 * fetching `proof_url` from there before `expires_at` (null once the link has expired: saving the
 * list again gives a new one). */
export const allowlistPendingSchema = z.object({
  ip: z.string(),
  proof_url: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type AllowlistPending = z.infer<typeof allowlistPendingSchema>;

export const allowlistSchema = z.object({
  /** The whole list, proven and pending entries alike, as POST takes it. */
  ips: z.array(z.string()),
  /** The entries of `ips` that are not proven yet. */
  pending: z.array(allowlistPendingSchema),
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

/** GET /allowlist/proof/{token}: a one-time proof link (128 random bits, base64url). */
export const allowlistProofParams = z.object({ token: z.string().max(64) });
/** GET /allowlist/proof/{token}: the entry the link proved. */
export const allowlistProofResponse = successEnvelope(z.object({ ip: z.string() }));
export type AllowlistProofResponse = z.infer<typeof allowlistProofResponse>;
