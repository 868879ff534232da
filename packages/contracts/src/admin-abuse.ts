import { z } from "zod";
import { parseDomainPattern } from "./destination-policy.ts";
import { successEnvelope } from "./envelope.ts";

/** GET /admin/abuse-lookup?target&from&to: who reached a domain or an address in a window, from
 * the usage the product keeps (per domain and day, per credential). */

/** The longest window one look-up covers. */
export const ABUSE_LOOKUP_MAX_DAYS = 31;
const DAY_MS = 86_400_000;

const day = (name: string) => z.iso.date({ error: `${name} must be a date (YYYY-MM-DD)` });

export const abuseLookupQuery = z
  .strictObject({
    target: z
      .string({ error: "target is required: a domain (example.com) or an address" })
      .trim()
      .toLowerCase()
      .refine(
        (value) => parseDomainPattern(value)?.kind === "exact",
        "target must be a domain like example.com or an IP address",
      ),
    from: day("from"),
    to: day("to"),
  })
  .refine((query) => query.from <= query.to, { message: "from must not be after to", path: ["from"] })
  .refine((query) => (Date.parse(query.to) - Date.parse(query.from)) / DAY_MS < ABUSE_LOOKUP_MAX_DAYS, {
    message: `the window from..to covers at most ${ABUSE_LOOKUP_MAX_DAYS} days`,
    path: ["to"],
  });
export type AbuseLookupQuery = z.infer<typeof abuseLookupQuery>;

/** One credential's traffic to the target: the customer's own credentials (subuser_id null) or
 * one sub-user's, with its bytes on each day that had any. */
export const abuseLookupRow = z.object({
  customer_id: z.string(),
  email: z.string(),
  disabled: z.boolean(),
  subuser_id: z.string().nullable(),
  /** The sub-user's label; null for the customer's own credentials or a deleted sub-user. */
  subuser_label: z.string().nullable(),
  total_bytes: z.number().int(),
  days: z.array(z.object({ day: z.string(), bytes: z.number().int() })),
});
export type AbuseLookupRow = z.infer<typeof abuseLookupRow>;

/** Requests a report rule let through to the target (or a name below it): per rule, credential,
 * name and day, as the gateways counted them. */
export const abuseReportHit = z.object({
  rule_id: z.number().int(),
  /** The rule's reason; null once the rule was deleted. */
  reason: z.string().nullable(),
  customer_id: z.string(),
  email: z.string(),
  subuser_id: z.string().nullable(),
  subuser_label: z.string().nullable(),
  domain: z.string(),
  day: z.string(),
  hits: z.number().int(),
});
export type AbuseReportHit = z.infer<typeof abuseReportHit>;

export const abuseLookupResponse = successEnvelope(
  z.object({
    target: z.string(),
    from: z.string(),
    to: z.string(),
    rows: z.array(abuseLookupRow),
    reported: z.array(abuseReportHit),
  }),
);
export type AbuseLookupResponse = z.infer<typeof abuseLookupResponse>;
