import { z } from "zod";
import { DESTINATION_ACTIONS, parseDomainPattern, parsePorts } from "./destination-policy.ts";
import { successEnvelope } from "./envelope.ts";

/** The operator's destination rules: GET/POST /admin/destination-rules, PATCH/DELETE
 * /admin/destination-rules/{id}. Every change writes an audit row and reaches every gateway
 * through the change feed. */

export const DESTINATION_REASON_MAX = 200;
/** Rules the operator may keep: the gateway holds them all in memory. */
export const MAX_DESTINATION_RULES = 10_000;

const unknownKeys = {
  error: (issue: { code?: string; keys?: string[] }) =>
    issue.code === "unrecognized_keys" ? `unknown field: ${issue.keys?.join(", ")}` : undefined,
};

const action = z.enum(DESTINATION_ACTIONS, {
  error: `action must be one of ${DESTINATION_ACTIONS.join(", ")}`,
});
const domain = z
  .string({ error: 'domain must be a host name like "example.com" or "*.example.com", or null' })
  .refine(
    (value) => parseDomainPattern(value) !== null,
    'domain must be a host name like "example.com" or "*.example.com", or an IP address',
  )
  .transform((value) => value.trim().toLowerCase().replace(/\.$/, ""))
  .nullable();
const ports = z
  .string({ error: 'ports must be a list like "25,465,587" or "1-1024", or null' })
  .refine(
    (value) => parsePorts(value) !== null,
    'ports must be ports 1-65535 or ranges, comma-separated, like "25,465,587" or "1-1024"',
  )
  .transform((value) => value.replace(/\s+/g, ""))
  .nullable();
const customerId = z.uuid({ error: "customer_id must be a customer's id, or null" }).nullable();
const reason = z
  .string({ error: "reason must be text" })
  .trim()
  .min(1, "reason is required: clients are shown it when they are refused")
  .max(DESTINATION_REASON_MAX, `reason must be at most ${DESTINATION_REASON_MAX} characters`)
  .refine((value) => !/\p{Cc}/u.test(value), "reason must not contain control characters");

const NEEDS_TARGET = "a rule needs a domain or ports (or both)";

/** POST /admin/destination-rules */
export const createDestinationRuleSchema = z
  .strictObject(
    {
      action,
      domain: domain.optional().default(null),
      ports: ports.optional().default(null),
      customer_id: customerId.optional().default(null),
      reason,
    },
    unknownKeys,
  )
  .refine((rule) => rule.domain !== null || rule.ports !== null, { message: NEEDS_TARGET, path: ["domain"] });
export type CreateDestinationRule = z.infer<typeof createDestinationRuleSchema>;

/** PATCH /admin/destination-rules/{id}: any of the fields, at least one. */
export const updateDestinationRuleSchema = z
  .strictObject(
    {
      action: action.optional(),
      domain: domain.optional(),
      ports: ports.optional(),
      customer_id: customerId.optional(),
      reason: reason.optional(),
    },
    unknownKeys,
  )
  .refine(
    (body) => Object.keys(body).length > 0,
    "Nothing to change: send action, domain, ports, customer_id or reason",
  );
export type UpdateDestinationRule = z.infer<typeof updateDestinationRuleSchema>;
export { NEEDS_TARGET as DESTINATION_RULE_NEEDS_TARGET };

export const destinationRuleIdParams = z.object({
  id: z.coerce
    .number({ error: "id must be a rule number" })
    .int("id must be a rule number")
    .positive("id must be a rule number"),
});

export const destinationRuleSchema = z.object({
  id: z.number().int(),
  action,
  domain: z.string().nullable(),
  ports: z.string().nullable(),
  customer_id: z.string().nullable(),
  /** The customer's e-mail, for the console's list (null for a global rule). */
  customer_email: z.string().nullable(),
  reason: z.string(),
  created_at: z.string(),
});
export type DestinationRule = z.infer<typeof destinationRuleSchema>;
export const destinationRuleResponse = successEnvelope(destinationRuleSchema);
export const destinationRuleListResponse = successEnvelope(z.array(destinationRuleSchema));
export type DestinationRuleListResponse = z.infer<typeof destinationRuleListResponse>;

/** A sub-user's allowed sites (PATCH /subusers/{id} {allowed_domains}). */
export const MAX_ALLOWED_DOMAINS = 100;
export const allowedDomainsSchema = z
  .array(z.string({ error: "allowed_domains entries must be text" }), {
    error: 'allowed_domains must be a list like ["example.com", "*.shop.example"], or null',
  })
  .max(MAX_ALLOWED_DOMAINS, `allowed_domains holds at most ${MAX_ALLOWED_DOMAINS} entries`)
  .superRefine((entries, context) => {
    for (const entry of entries) {
      if (parseDomainPattern(entry) === null) {
        context.addIssue({
          code: "custom",
          message: `allowed_domains entry "${entry.slice(0, 80)}" is not a host name like "example.com" or "*.example.com"`,
        });
        return;
      }
    }
  })
  .transform((entries) => [...new Set(entries.map((entry) => entry.trim().toLowerCase().replace(/\.$/, "")))])
  .nullable();
