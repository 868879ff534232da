import { z } from "zod";
import { successEnvelope } from "./envelope.ts";
import {
  USAGE_GROUPINGS,
  USAGE_OWN_CREDENTIALS_FILTER,
  USAGE_PERIOD_MESSAGE,
  USAGE_PERIODS,
} from "./usage-periods.ts";

const PERIOD_VALUES = USAGE_PERIODS.map(String) as [string, ...string[]];

/** Query strings carry text: days stay strings here and become a UsagePeriod with parseUsagePeriod. */
export const usagePeriodQuery = z.enum(PERIOD_VALUES, { error: USAGE_PERIOD_MESSAGE }).optional();

/** `subuser`: one sub-user's id, or "main" for the account's own credentials. */
export const usageSubuserFilter = z
  .union([z.uuid(), z.literal(USAGE_OWN_CREDENTIALS_FILTER)], {
    error: `subuser must be a sub-user id or ${USAGE_OWN_CREDENTIALS_FILTER}`,
  })
  .optional();

/** GET /proxies/usage query (docs/product.md#api-calls). */
export const usageQuerySchema = z.object({
  group_by: z.enum(USAGE_GROUPINGS, { error: `group_by must be one of ${USAGE_GROUPINGS.join(", ")}` }),
  days: usagePeriodQuery,
  others: z.enum(["true", "false"], { error: "others must be true or false" }).optional(),
  subuser: usageSubuserFilter,
});
export type UsageQuery = z.infer<typeof usageQuerySchema>;

/** docs/product.md#data-shapes: the four metric fields. GB = bytes / 1e9 rounded to 2 decimals; requests are counts.
 * The exact byte counts come beside the GB, so a few KB is not shown as 0 GB. */
export const usageMetricsSchema = z.object({
  mobile_gb: z.number().nonnegative(),
  dc_gb: z.number().nonnegative(),
  mobile_requests: z.number().int().nonnegative(),
  dc_requests: z.number().int().nonnegative(),
  mobile_bytes: z.number().int().nonnegative(),
  dc_bytes: z.number().int().nonnegative(),
});
export type UsageMetrics = z.infer<typeof usageMetricsSchema>;

/** One row per UTC day of the window, zero-filled, oldest first; `date` is YYYY-MM-DD. */
export const usageDayRowSchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  ...usageMetricsSchema.shape,
});
export type UsageDayRow = z.infer<typeof usageDayRowSchema>;

/** One row per domain, largest total first; with others=true the last row may be "Others". */
export const usageDomainRowSchema = z.object({ value: z.string(), ...usageMetricsSchema.shape });
export type UsageDomainRow = z.infer<typeof usageDomainRowSchema>;

/** group_by=subuser: one row per sub-user (value: its label) and one for the account's own
 * credentials (subuser_id null), most bytes first. */
export const usageSubuserRowSchema = z.object({
  value: z.string(),
  subuser_id: z.string().nullable(),
  ...usageMetricsSchema.shape,
});
export type UsageSubuserRow = z.infer<typeof usageSubuserRowSchema>;

/** Decision 005: every grouping answers `data` as an array (docs/product.md#api-calls); by proxy_type it holds
 * exactly one row with the four metric fields. */
export const usageResponse = successEnvelope(
  // Sub-user rows first: a domain row's schema would otherwise take them and drop subuser_id.
  z.union([
    z.array(usageSubuserRowSchema),
    z.array(usageDayRowSchema),
    z.array(usageDomainRowSchema),
    z.array(usageMetricsSchema),
  ]),
);

/** GET /proxies/usage/export query. */
export const usageExportQuerySchema = z.object({
  days: usagePeriodQuery,
  format: z.enum(["csv"], { error: "format must be csv" }).optional(),
  subuser: usageSubuserFilter,
});
export type UsageExportQuery = z.infer<typeof usageExportQuerySchema>;
