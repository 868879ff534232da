import { z } from "zod";
import { adminAccount, adminOrder, creditFields } from "./admin.ts";
import { SUBUSER_LIMIT_PERIODS } from "./subusers.ts";

/** The console's customers: GET /admin/customers (search by e-mail substring, `page`, `per_page`),
 * GET /admin/customers/{id}, and the actions on one customer. Every action writes an audit row. */

/** An account in the customers list: its balance, and whether an operator disabled it. */
export const adminCustomer = adminAccount.extend({ disabled_at: z.string().nullable() });
export type AdminCustomer = z.infer<typeof adminCustomer>;

export const adminCustomersPage = z.object({
  success: z.literal(true),
  data: z.array(adminCustomer),
  page: z.number(),
  per_page: z.number(),
  total: z.number(),
});
export type AdminCustomersPage = z.infer<typeof adminCustomersPage>;

/** Pages of the customer page's ledger and orders (20 rows each, newest first), and of its
 * sub-users (20 each, oldest first). */
export const CUSTOMER_PAGE_ROWS = 20;
export const customerDetailQuery = z
  .object({
    ledger_page: z.coerce
      .number({ error: "ledger_page must be a number" })
      .int("ledger_page must be a whole number")
      .min(1, "ledger_page must be at least 1")
      .max(1_000_000, "ledger_page must be at most 1000000")
      .default(1),
    orders_page: z.coerce
      .number({ error: "orders_page must be a number" })
      .int("orders_page must be a whole number")
      .min(1, "orders_page must be at least 1")
      .max(1_000_000, "orders_page must be at most 1000000")
      .default(1),
    subusers_page: z.coerce
      .number({ error: "subusers_page must be a number" })
      .int("subusers_page must be a whole number")
      .min(1, "subusers_page must be at least 1")
      .max(1_000_000, "subusers_page must be at most 1000000")
      .default(1),
  })
  .strict();
export type CustomerDetailQuery = z.infer<typeof customerDetailQuery>;

/** One ledger entry: kind purchase | bonus | usage | deposit | refund | chargeback | adjustment. */
export const adminLedgerEntry = z.object({
  id: z.number(),
  kind: z.string(),
  reference: z.string(),
  delta_bytes: z.number(),
  delta_gb: z.number(),
  note: z.string().nullable(),
  created_at: z.string(),
});
export type AdminLedgerEntry = z.infer<typeof adminLedgerEntry>;

/** One UTC day of the customer's traffic (both proxy types), the last 30 days, oldest first. */
export const adminUsageDay = z.object({
  day: z.string(),
  bytes: z.number(),
  gb: z.number(),
  requests: z.number(),
});

/** Traffic over the customer page's 30 days (both proxy types). */
export const adminTraffic = z.object({ bytes: z.number(), gb: z.number(), requests: z.number() });

/** One of the customer's sub-users as the operator sees it (never its password): its limit and
 * this period's use (as the customer's Sub-users page shows them), and its last 30 days. */
export const adminSubuser = z.object({
  id: z.string(),
  label: z.string(),
  username: z.string(),
  limit_gb: z.number().nullable(),
  limit_bytes: z.number().nullable(),
  limit_period: z.enum(SUBUSER_LIMIT_PERIODS),
  used_gb: z.number(),
  used_bytes: z.number(),
  /** When the current period began (YYYY-MM-DD, UTC). */
  period_start: z.string(),
  enabled: z.boolean(),
  created_at: z.string(),
  last_30_days: adminTraffic,
});
export type AdminSubuser = z.infer<typeof adminSubuser>;

export const adminCustomerDetail = adminCustomer.extend({
  /** Bytes gateway instances have reserved of the balance and may still relay. */
  leased_bytes: z.number(),
  leased_gb: z.number(),
  sessions: z.object({
    /** Sessions neither revoked nor expired. */
    active: z.number(),
    /** When the newest session was made (signed in), or null if never. */
    latest_at: z.string().nullable(),
  }),
  api_token: z.object({ exists: z.boolean(), created_at: z.string().nullable() }),
  proxy_credentials: z.object({ username: z.string().nullable(), updated_at: z.string().nullable() }),
  usage_by_day: z.array(adminUsageDay),
  ledger: z.object({
    data: z.array(adminLedgerEntry),
    page: z.number(),
    per_page: z.number(),
    total: z.number(),
  }),
  orders: z.object({ data: z.array(adminOrder), page: z.number(), per_page: z.number(), total: z.number() }),
  /** A page of the sub-users; `main_credentials` and `deleted` split the 30 days' traffic that
   * was not a current sub-user's (the account's own credentials, sub-users deleted since). */
  subusers: z.object({
    data: z.array(adminSubuser),
    page: z.number(),
    per_page: z.number(),
    total: z.number(),
    main_credentials: adminTraffic,
    deleted: adminTraffic,
  }),
});
export type AdminCustomerDetail = z.infer<typeof adminCustomerDetail>;
export const adminCustomerDetailResponse = z.object({ success: z.literal(true), data: adminCustomerDetail });

const note = z
  .string({ error: "note must be text" })
  .trim()
  .min(1, "note must not be empty")
  .max(500, "note must be at most 500 characters");

/** POST /admin/customers/{id}/credit: gb may be negative (a debit); an Idempotency-Key header
 * makes a retry a no-op (the same as POST /admin/credits). Answers creditResponse. */
export const customerCreditRequest = z.object(creditFields).strict();
export type CustomerCreditRequest = z.infer<typeof customerCreditRequest>;

/** POST /admin/customers/{id}/{revoke-sessions,regenerate-credentials,disable,enable}: an
 * optional note for the audit log (the body may be left out). */
export const customerActionRequest = z.object({ note: note.optional() }).strict().nullish();
export type CustomerActionRequest = z.infer<typeof customerActionRequest>;

export const CUSTOMER_ACTIONS = ["revoke-sessions", "regenerate-credentials", "disable", "enable"] as const;
export type CustomerAction = (typeof CUSTOMER_ACTIONS)[number];

/** What an action did (a person reads `message`) and the customer as it is now. */
export const customerActionResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: adminCustomer,
});
export type CustomerActionResponse = z.infer<typeof customerActionResponse>;
