import { z } from "zod";
import { successEnvelope } from "./envelope.ts";
import { countryCodeProblem } from "./proxy-username.ts";

/** Exits as data (GET/POST /admin/upstreams, PATCH/DELETE /admin/upstreams/{id}, POST …/test)
 * and the margin report (GET /admin/margins). Money crosses the API in US dollars with at most
 * six decimals; inside it is integer micro-dollars (money.ts). */

export const EXIT_POOLS = ["mobile", "datacenter"] as const;
export type ExitPool = (typeof EXIT_POOLS)[number];
export const EXIT_STATES = ["up", "down", "disabled", "budget_reached"] as const;
export type ExitState = (typeof EXIT_STATES)[number];
export const EXIT_SOURCES = ["console", "environment"] as const;

/** `direct`, or an http/https/socks5 URL (credentials and `{country}{city}{session}{sesstime}`
 * templates allowed). */
const exitUrl = z
  .string()
  .trim()
  .min(1, "url is required")
  .max(2_000, "url is at most 2000 characters")
  .refine((text) => text === "direct" || /^(https?|socks5):\/\/[^\s]+$/.test(text), {
    message: "url must be direct, or an http://, https:// or socks5:// URL",
  })
  .refine((text) => !text.includes("?"), { message: "url takes no query: give countries apart" });

const countries = z
  .array(z.string().trim())
  .max(250, "countries holds at most 250 codes")
  .superRefine((codes, ctx) => {
    for (const code of codes) {
      const problem = countryCodeProblem(code);
      if (problem) ctx.addIssue({ code: "custom", message: `countries: ${problem}` });
    }
  })
  .transform((codes) => [...new Set(codes.map((code) => code.toUpperCase()))].sort());

/** Dollars per GB, ≥ 0, at most six decimals (whole micro-dollars). */
const costPerGb = z
  .number({ error: "cost_per_gb_usd must be a number" })
  .min(0, "cost_per_gb_usd must be 0 or more")
  .max(1_000_000, "cost_per_gb_usd is at most 1000000")
  .refine(
    (usd) => Number.isInteger(Math.round(usd * 1e6)) && Math.abs(usd * 1e6 - Math.round(usd * 1e6)) < 1e-6,
    {
      message: "cost_per_gb_usd has at most six decimals",
    },
  );

const exitFields = {
  name: z.string().trim().min(1, "name is required").max(80, "name is at most 80 characters"),
  pool: z.enum(EXIT_POOLS, { error: "pool must be mobile or datacenter" }),
  url: exitUrl,
  countries,
  cost_per_gb_usd: costPerGb,
  weight: z
    .number({ error: "weight must be a number" })
    .int("weight must be a whole number")
    .min(1, "weight is 1 to 100")
    .max(100, "weight is 1 to 100"),
  /** GB of 10^9 bytes; fractions down to one kB. null: no budget. */
  monthly_budget_gb: z
    .number({ error: "monthly_budget_gb must be a number" })
    .min(0.000001, "monthly_budget_gb must be above 0 (null: no budget)")
    .max(10_000_000, "monthly_budget_gb is at most 10000000")
    .nullable(),
  enabled: z.boolean({ error: "enabled must be true or false" }),
};

export const createUpstreamBody = z.strictObject({
  name: exitFields.name,
  pool: exitFields.pool,
  url: exitFields.url,
  countries: exitFields.countries.optional(),
  cost_per_gb_usd: exitFields.cost_per_gb_usd,
  weight: exitFields.weight.optional(),
  monthly_budget_gb: exitFields.monthly_budget_gb.optional(),
  enabled: exitFields.enabled.optional(),
});
export type CreateUpstreamBody = z.infer<typeof createUpstreamBody>;

export const updateUpstreamBody = z
  .strictObject({
    name: exitFields.name.optional(),
    pool: exitFields.pool.optional(),
    url: exitFields.url.optional(),
    countries: exitFields.countries.optional(),
    cost_per_gb_usd: exitFields.cost_per_gb_usd.optional(),
    weight: exitFields.weight.optional(),
    monthly_budget_gb: exitFields.monthly_budget_gb.optional(),
    enabled: exitFields.enabled.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: "body: give at least one field to change" });
export type UpdateUpstreamBody = z.infer<typeof updateUpstreamBody>;

/** A console exit's UUID; an environment exit's `env:<pool>:<n>` is refused as read-only. */
export const upstreamParams = z.object({
  id: z
    .string()
    .regex(
      /^(env:(mobile|datacenter):\d{1,4}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i,
      "id must be an exit's id",
    ),
});

export const upstreamTestBody = z
  .strictObject({
    /** What to GET through the exit: an echo service that answers the caller's address (and
     * country) as JSON; default ip-api.com. */
    url: z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, "url must be an http:// or https:// URL")
      .max(2_000, "url is at most 2000 characters")
      .optional(),
  })
  .optional();

export const upstreamSchema = z.object({
  /** A UUID for a console exit; `env:<pool>:<n>` for one from the environment. */
  id: z.string(),
  name: z.string(),
  pool: z.enum(EXIT_POOLS),
  /** The URL with its password masked: `http://user:****@host:port`. */
  url: z.string(),
  countries: z.array(z.string()),
  cost_per_gb_usd: z.number().nonnegative(),
  weight: z.number().int(),
  monthly_budget_gb: z.number().nullable(),
  enabled: z.boolean(),
  source: z.enum(EXIT_SOURCES),
  state: z.enum(EXIT_STATES),
  /** Bytes carried this calendar month (UTC), from the billed usage. */
  month_bytes: z.number().int().nonnegative(),
  last_hour: z.object({
    bytes: z.number().int().nonnegative(),
    connects: z.number().int().nonnegative(),
    failures: z.number().int().nonnegative(),
    median_connect_ms: z.number().nonnegative().nullable(),
  }),
});
export type Upstream = z.infer<typeof upstreamSchema>;

export const upstreamsResponse = successEnvelope(z.array(upstreamSchema));
export const upstreamResponse = successEnvelope(upstreamSchema);

export const upstreamTestResponse = successEnvelope(
  z.object({
    ok: z.boolean(),
    /** The address the exit's traffic leaves from, as an echo service saw it. */
    ip: z.string().nullable(),
    country: z.string().nullable(),
    connect_ms: z.number().nonnegative().nullable(),
    /** What failed (unreachable, refused credentials, timeout…); null when ok. */
    error: z.string().nullable(),
  }),
);
export type UpstreamTest = z.infer<typeof upstreamTestResponse>["data"];

export const MARGIN_GROUPS = ["day", "upstream", "pool", "customer"] as const;
export type MarginGroup = (typeof MARGIN_GROUPS)[number];

const isoDay = /^\d{4}-\d{2}-\d{2}$/;
export const marginsQuery = z
  .object({
    /** First UTC day included (YYYY-MM-DD). */
    from: z.string().regex(isoDay, "from must be a day, YYYY-MM-DD"),
    /** Last UTC day included (YYYY-MM-DD). */
    to: z.string().regex(isoDay, "to must be a day, YYYY-MM-DD"),
    group_by: z
      .enum(MARGIN_GROUPS, { error: "group_by must be day, upstream, pool or customer" })
      .default("day"),
  })
  .refine((query) => query.from <= query.to, { message: "to: must not be before from", path: ["to"] });

export const marginRowSchema = z.object({
  /** The day, the exit's id, the pool or the customer's id. */
  key: z.string(),
  /** What people read: the exit's name, the customer's e-mail… */
  label: z.string(),
  /** Bytes the exits carried. */
  bytes: z.number().int().nonnegative(),
  /** Balance bytes debited for them (datacenter bytes at the datacenter price's ratio). */
  billed_bytes: z.number().int().nonnegative(),
  billed_usd: z.number(),
  cost_usd: z.number(),
  margin_usd: z.number(),
});
export type MarginRow = z.infer<typeof marginRowSchema>;

export const marginsResponse = successEnvelope(
  z.object({ rows: z.array(marginRowSchema), total: marginRowSchema }),
);
export type MarginsResponse = z.infer<typeof marginsResponse>;
