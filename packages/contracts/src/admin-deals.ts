import { z } from "zod";
import { adminPaging, pageOf } from "./admin.ts";
import { deal, dealPrice, dealWindowFields, PAYOUT_STATUSES, payout } from "./deals.ts";

/** The operator's view of deals: GET /admin/deals carries each group buy's progress; PATCH
 * /admin/deals/{id} edits a deal that has not started (409 once it has). */

export const adminDeal = deal.extend({
  /** A group buy's paid deposits counting towards its target, USD (0 for a flash sale). */
  deposited_usd: z.number(),
  /** Paid deposits (group buy) or open and paid orders (flash sale). */
  participants: z.number(),
  /** deposited or reserved against the target, 0–100 (may pass 100 for a group buy). */
  progress_percent: z.number(),
});
export type AdminDeal = z.infer<typeof adminDeal>;
export const adminDealListResponse = z.object({ success: z.literal(true), data: z.array(adminDeal) });
export type AdminDealListResponse = z.infer<typeof adminDealListResponse>;

/** PATCH /admin/deals/{id}: any of these; the type cannot change. Checked again as a whole
 * (end after start, a flash sale's stock at least one unit) against the deal's other fields. */
export const updateDealRequest = z
  .object({
    deal_title: z.string().trim().min(1, "deal_title must not be empty").max(200),
    deal_description: z.string().trim().max(2000),
    deal_price: dealPrice,
    ...dealWindowFields,
  })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, "Send at least one field to change.");
export type UpdateDealRequest = z.infer<typeof updateDealRequest>;

/** GET /admin/payouts: one page of payouts, newest first, optionally of one status. */
export const adminPayoutsQuery = z
  .object({
    ...adminPaging,
    status: z.enum(PAYOUT_STATUSES, { error: "status must be pending, sent or failed" }).optional(),
  })
  .strict();
export type AdminPayoutsQuery = z.infer<typeof adminPayoutsQuery>;
/** The operator's view of a payout names its customer. */
export const adminPayout = payout.extend({ email: z.string() });
export type AdminPayout = z.infer<typeof adminPayout>;
export const adminPayoutsPage = pageOf(adminPayout);
export type AdminPayoutsPage = z.infer<typeof adminPayoutsPage>;
