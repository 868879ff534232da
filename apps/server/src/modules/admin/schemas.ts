import { errorResponse } from "@bytetoll/contracts";
import { z } from "zod";
import { order, PAYMENT_STATUSES } from "../orders/schemas.ts";

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

export const account = z.object({
  id: z.string(),
  email: z.string(),
  balance_gb: z.number(),
  balance_bytes: z.number(),
  created_at: z.string(),
});
export type Account = z.infer<typeof account>;

export const creditResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ account, delta_bytes: z.number(), reference: z.string() }),
});

const paging = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(500).default(50),
  email: z.string().max(254).optional(),
};

export const accountsQuery = z.object(paging).strict();
export const ordersQuery = z.object({ ...paging, status: z.enum(PAYMENT_STATUSES).optional() }).strict();
export type AccountsQuery = z.infer<typeof accountsQuery>;
export type OrdersQuery = z.infer<typeof ordersQuery>;

const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    success: z.literal(true),
    data: z.array(item),
    page: z.number(),
    per_page: z.number(),
    total: z.number(),
  });

export const accountsPage = pageOf(account);
export const ordersPage = pageOf(order.extend({ email: z.string() }));

export const adminErrors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 429: errorResponse };
