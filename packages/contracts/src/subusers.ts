import { z } from "zod";
import { allowedDomainsSchema } from "./destination-rules.ts";
import { successEnvelope } from "./envelope.ts";

/** How a sub-user's limit restarts: each UTC day, each week on Monday 00:00 UTC, each month on
 * the 1st 00:00 UTC, or never ("total"). */
export const SUBUSER_LIMIT_PERIODS = ["day", "week", "month", "total"] as const;
export type SubuserLimitPeriod = (typeof SUBUSER_LIMIT_PERIODS)[number];
/** Sub-users one account may hold. */
export const MAX_SUBUSERS = 1000;
export const SUBUSER_LABEL_MAX = 64;
/** The smallest limit: 1 MB. */
export const SUBUSER_LIMIT_GB_MIN = 0.001;
/** A limit larger than this (1 PB) is no limit at all; keeps byte counts far inside 2^53. */
export const SUBUSER_LIMIT_GB_MAX = 1_000_000;

const label = z
  .string({ error: "label must be text" })
  .trim()
  .min(1, "label is required")
  .max(SUBUSER_LABEL_MAX, `label must be at most ${SUBUSER_LABEL_MAX} characters`)
  // Control characters would end up in CSV exports and e-mails.
  .refine((value) => !/\p{Cc}/u.test(value), "label must not contain control characters");

const limitGb = z
  .number({ error: `limit_gb must be a number of GB (at least ${SUBUSER_LIMIT_GB_MIN}, 1 MB) or null` })
  .min(SUBUSER_LIMIT_GB_MIN, `limit_gb must be at least ${SUBUSER_LIMIT_GB_MIN} (1 MB), or null for no limit`)
  .max(SUBUSER_LIMIT_GB_MAX, `limit_gb must be at most ${SUBUSER_LIMIT_GB_MAX}`)
  .nullable();

const limitPeriod = z.enum(SUBUSER_LIMIT_PERIODS, {
  error: `limit_period must be one of ${SUBUSER_LIMIT_PERIODS.join(", ")}`,
});

/** POST /subusers */
export const createSubuserSchema = z.strictObject(
  { label, limit_gb: limitGb.optional(), limit_period: limitPeriod.optional() },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown field: ${issue.keys.join(", ")}` : undefined,
  },
);
export type CreateSubuser = z.infer<typeof createSubuserSchema>;

/** PATCH /subusers/{id}: any of the fields, at least one. */
export const updateSubuserSchema = z
  .strictObject(
    {
      label: label.optional(),
      limit_gb: limitGb.optional(),
      limit_period: limitPeriod.optional(),
      enabled: z.boolean({ error: "enabled must be true or false" }).optional(),
      /** The only sites the sub-user may reach ("example.com", "*.shop.example"); null: any. */
      allowed_domains: allowedDomainsSchema.optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys" ? `unknown field: ${issue.keys.join(", ")}` : undefined,
    },
  )
  .refine(
    (body) => Object.keys(body).length > 0,
    "Nothing to change: send label, limit_gb, limit_period, enabled or allowed_domains",
  );
export type UpdateSubuser = z.infer<typeof updateSubuserSchema>;

export const subuserIdParams = z.object({ id: z.uuid({ error: "id must be a sub-user id" }) });

/** A sub-user as its owner sees it. GB = bytes / 1e9 (used_gb rounded to 3 decimals); the exact
 * byte counts come beside them. `used_*` is the current period's relayed traffic as committed by
 * the gateways (a few seconds behind). */
export const subuserSchema = z.object({
  id: z.string(),
  label: z.string(),
  username: z.string(),
  password: z.string(),
  limit_gb: z.number().nullable(),
  limit_bytes: z.number().int().nullable(),
  limit_period: limitPeriod,
  used_gb: z.number().nonnegative(),
  used_bytes: z.number().int().nonnegative(),
  /** When the current period began (YYYY-MM-DD, UTC); 1970-01-01 for "total". */
  period_start: z.string(),
  enabled: z.boolean(),
  /** The only sites it may reach: exact names, or "*.suffix" for every name below; null: any. */
  allowed_domains: z.array(z.string()).nullable(),
  created_at: z.string(),
});
export type Subuser = z.infer<typeof subuserSchema>;
export const subuserResponse = successEnvelope(subuserSchema);
export const subuserListResponse = successEnvelope(z.array(subuserSchema));
export type SubuserListResponse = z.infer<typeof subuserListResponse>;
