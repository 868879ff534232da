import { z } from "zod";
import { accountStatusSchema } from "./account.ts";
import { PAYMENT_STATUSES } from "./order-constants.ts";
import { order } from "./orders.ts";

/** The operator's API (ADMIN_TOKEN) and CLI: balance adjustments, accounts and orders. */

export const creditRequest = z
  .object({
    email: z.email({ error: "email must be an e-mail address" }).max(254),
    gb: z
      .number({ error: "gb must be a number" })
      .refine((value) => value !== 0, "gb must not be 0")
      .refine((value) => Math.abs(value) <= 1_000_000, "gb must be between -1000000 and 1000000"),
    note: z.string({ error: "note is required" }).trim().min(1, "note is required").max(500),
  })
  .strict();
export type CreditRequest = z.infer<typeof creditRequest>;

/** An account as the operator sees it: its balance as GET /account/status gives it, and who. */
export const adminAccount = z.object({
  id: z.string(),
  email: z.string(),
  ...accountStatusSchema.shape,
  created_at: z.string(),
});
export type AdminAccount = z.infer<typeof adminAccount>;

export const creditResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ account: adminAccount, delta_bytes: z.number(), reference: z.string() }),
});

const paging = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(500).default(50),
  email: z.string().max(254).optional(),
};

export const accountsQuery = z.object(paging).strict();
export const adminOrdersQuery = z.object({ ...paging, status: z.enum(PAYMENT_STATUSES).optional() }).strict();
export type AccountsQuery = z.infer<typeof accountsQuery>;
export type AdminOrdersQuery = z.infer<typeof adminOrdersQuery>;

const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    success: z.literal(true),
    data: z.array(item),
    page: z.number(),
    per_page: z.number(),
    total: z.number(),
  });

export const accountsPage = pageOf(adminAccount);
export const adminOrdersPage = pageOf(order.extend({ email: z.string() }));
