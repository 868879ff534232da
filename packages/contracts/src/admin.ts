import { z } from "zod";
import { accountStatusSchema } from "./account.ts";
import { successEnvelope } from "./envelope.ts";
import { ORDER_PROVIDERS, PAYMENT_STATUSES } from "./order-constants.ts";
import { order } from "./orders.ts";

/** The operator's API (an ADMIN_EMAILS operator's session, or ADMIN_TOKEN) and CLI: balance
 * adjustments, accounts and orders. The console's other calls: admin-customers.ts,
 * admin-orders.ts, admin-overview.ts, admin-audit.ts. */

/** A credit's amount (negative: a debit) and the note the ledger and the audit log keep. */
export const creditFields = {
  gb: z
    .number({ error: "gb must be a number" })
    .refine((value) => value !== 0, "gb must not be 0")
    .refine((value) => Math.abs(value) <= 1_000_000, "gb must be between -1000000 and 1000000"),
  note: z.string({ error: "note is required" }).trim().min(1, "note is required").max(500),
};

export const creditRequest = z
  .object({ email: z.email({ error: "email must be an e-mail address" }).max(254), ...creditFields })
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

/** `page` (1-based) and `per_page` (≤ 500, default 50) of every admin list. */
export const adminPaging = {
  page: z.coerce
    .number({ error: "page must be a number" })
    .int("page must be a whole number")
    .min(1, "page must be at least 1")
    .max(1_000_000, "page must be at most 1000000")
    .default(1),
  per_page: z.coerce
    .number({ error: "per_page must be a number" })
    .int("per_page must be a whole number")
    .min(1, "per_page must be between 1 and 500")
    .max(500, "per_page must be between 1 and 500")
    .default(50),
};
const paging = {
  ...adminPaging,
  email: z.string().max(254, "email must be at most 254 characters").optional(),
};

const date = (name: string) => z.iso.date({ error: `${name} must be a date (YYYY-MM-DD)` }).optional();

/** GET /admin/accounts (and GET /admin/customers): `email` filters by substring. */
export const accountsQuery = z.object(paging).strict();
/** GET /admin/orders: every filter optional; `from`/`to` are UTC days, both included. */
export const adminOrdersQuery = z
  .object({
    ...paging,
    status: z
      .enum(PAYMENT_STATUSES, { error: `status must be one of ${PAYMENT_STATUSES.join(", ")}` })
      .optional(),
    method: z.enum(["crypto", "card"], { error: "method must be crypto or card" }).optional(),
    provider: z
      .enum(ORDER_PROVIDERS, { error: `provider must be one of ${ORDER_PROVIDERS.join(", ")}` })
      .optional(),
    from: date("from"),
    to: date("to"),
  })
  .strict()
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ["to"],
    message: "to must not be before from",
  });
export type AccountsQuery = z.infer<typeof accountsQuery>;
export type AdminOrdersQuery = z.infer<typeof adminOrdersQuery>;

/** A list page of the admin API: `{success, data, page, per_page, total}`. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    success: z.literal(true),
    data: z.array(item),
    page: z.number(),
    per_page: z.number(),
    total: z.number(),
  });

export const accountsPage = pageOf(adminAccount);

/** An order as the operator sees it: the customer's shape plus who, the provider's payment id and
 * how much of it reached the ledger. */
export const adminOrder = order.extend({
  email: z.string(),
  provider_payment_id: z.string().nullable(),
  credited_gb: z.number(),
  reversed_gb: z.number(),
});
export type AdminOrder = z.infer<typeof adminOrder>;
export const adminOrdersPage = pageOf(adminOrder);
export type AdminOrdersPage = z.infer<typeof adminOrdersPage>;

/** GET /admin/me: 200 for an operator (who the audit log will name), 403 for a customer, 401
 * without credentials, 404 when neither ADMIN_EMAILS nor ADMIN_TOKEN is set. */
export const adminMe = z.object({
  /** The operator's e-mail, or "admin-token". */
  actor: z.string(),
  /** null for ADMIN_TOKEN. */
  email: z.string().nullable(),
});
export type AdminMe = z.infer<typeof adminMe>;
export const adminMeResponse = successEnvelope(adminMe);

/** Ids in admin paths: a uuid (accounts, orders, payouts). */
export const adminUuidParams = z.object({ id: z.uuid({ error: "id must be a UUID" }) });
