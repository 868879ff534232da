import { z } from "zod";

/** GET /admin/overview?days=1|7|30|90 — the business over the last `days` UTC days (today
 * included), from the tables the product keeps. Live gateway figures: GET /admin/network. */

export const OVERVIEW_DAYS = [1, 7, 30, 90] as const;
export const overviewQuery = z
  .object({
    days: z
      .enum(["1", "7", "30", "90"], { error: "days must be 1, 7, 30 or 90" })
      .default("7")
      .transform(Number),
  })
  .strict();
export type OverviewQuery = z.infer<typeof overviewQuery>;

export const overview = z.object({
  days: z.number(),
  /** First and last UTC day of the window (YYYY-MM-DD). */
  from: z.string(),
  to: z.string(),
  /** Money that stayed: each order's price × the share of its bytes credited and not reversed,
   * counted on the day it was paid. USD cents. */
  revenue: z.object({
    total_cents: z.number(),
    by_day: z.array(z.object({ day: z.string(), cents: z.number(), orders: z.number() })),
    by_provider: z.array(z.object({ provider: z.string(), cents: z.number(), orders: z.number() })),
  }),
  /** GB sold = purchase ledger entries; GB used = traffic the gateways metered (both types). */
  data: z.object({
    sold_gb: z.number(),
    used_gb: z.number(),
    by_day: z.array(z.object({ day: z.string(), sold_gb: z.number(), used_gb: z.number() })),
  }),
  customers: z.object({
    /** Accounts made in the window. */
    new: z.number(),
    /** Accounts with traffic in the window. */
    active: z.number(),
    total: z.number(),
    disabled: z.number(),
  }),
  /** Proxy requests the gateways refused, by reason (most first), beside the requests they served:
   * requests = served + refused; share = count / requests (0 when there were none). */
  refusals: z.object({
    requests: z.number(),
    by_reason: z.array(z.object({ reason: z.string(), count: z.number(), share: z.number() })),
  }),
  /** Signed payment callbacks refused (payment_rejections), by reason. */
  payment_rejections: z.array(z.object({ reason: z.string(), count: z.number() })),
});
export type Overview = z.infer<typeof overview>;
export const overviewResponse = z.object({ success: z.literal(true), data: overview });
