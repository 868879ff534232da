import { z } from "zod";
import {
  MAX_ORDER_USD,
  MIN_ORDER_USD,
  NETWORKS,
  ORDER_ORIGINS,
  ORDER_PROVIDERS,
  PAYMENT_STATUSES,
} from "./order-constants.ts";

/** Decision 003's shapes: the server validates and documents with them, the web takes their types. */

const networkType = z
  .enum(NETWORKS, { error: "network_type must be one of solana, polygon, base, ethereum" })
  .optional();

/** A crypto payment names its network; the schemas that take a method share this rule. */
function requireNetworkForCrypto(
  body: { method: "crypto" | "card"; network_type?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (body.method === "crypto" && !body.network_type) {
    ctx.addIssue({ code: "custom", path: ["network_type"], message: "network_type is required for crypto" });
  }
}

const twoDecimals = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

export const createOrderRequest = z
  .object({
    amount: z
      .number({ error: "amount must be a number of USD" })
      .positive("amount must be greater than 0")
      .min(MIN_ORDER_USD, `amount must be at least ${MIN_ORDER_USD} USD`)
      .max(MAX_ORDER_USD, `amount must be at most ${MAX_ORDER_USD} USD`)
      .refine(twoDecimals, "amount must have at most 2 decimals")
      // A flash-sale order may name its quantity alone: the deal sets the price.
      .optional(),
    method: z.enum(["crypto", "card"], { error: "method must be crypto or card" }).default("crypto"),
    network_type: networkType,
    deal_id: z.string().min(1).max(64).optional(),
    quantity: z
      .number()
      .int("quantity must be a whole number")
      .min(1, "quantity must be at least 1")
      .optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    requireNetworkForCrypto(body, ctx);
    if (body.quantity !== undefined && body.deal_id === undefined) {
      ctx.addIssue({ code: "custom", path: ["quantity"], message: "quantity is only allowed with deal_id" });
    }
    if (body.amount === undefined && body.quantity === undefined) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: "amount must be a number of USD" });
    }
  });
export type CreateOrderRequest = z.infer<typeof createOrderRequest>;

/** POST /transactions/{orderId}/payment: how to pay an order made at sign-in. */
export const choosePaymentRequest = z
  .object({
    method: z.enum(["crypto", "card"], { error: "method must be crypto or card" }),
    network_type: networkType,
  })
  .strict()
  .superRefine((body, ctx) => {
    requireNetworkForCrypto(body, ctx);
    if (body.method === "card" && body.network_type) {
      ctx.addIssue({ code: "custom", path: ["network_type"], message: "network_type is only for crypto" });
    }
  });
export type ChoosePaymentRequest = z.infer<typeof choosePaymentRequest>;

export const order = z.object({
  order_id: z.string(),
  user_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  expires_at: z.string(),
  paid_at: z.string().nullable(),
  note: z.string().nullable(),
  method: z.enum(["crypto", "card"]),
  network_type: z.enum(NETWORKS).nullable(),
  amount_usd: z.number(),
  gb: z.number(),
  payment_status: z.enum(PAYMENT_STATUSES),
  /** Who opened the payment ("Powered by …" on the order page, the receipt). */
  provider: z.enum(ORDER_PROVIDERS),
  pay_address: z.string().nullable(),
  qr_code: z.string().nullable(),
  price_amount: z.number().nullable(),
  payment_token: z.string().nullable(),
  payin_hash: z.string().nullable(),
  transaction_url: z.string().nullable(),
  balance_gb_after: z.number().nullable(),
  stripe_redirect_url: z.string().nullable(),
  deal_id: z.string().nullable(),
  quantity: z.number().nullable(),
  /** `auto_topup` for an order charged to the saved card (the history's "Auto top-up"). */
  origin: z.enum(ORDER_ORIGINS),
});
export type Order = z.infer<typeof order>;

export const orderResponse = z.object({ success: z.literal(true), data: order });

const pageNumber = z.coerce
  .number({ error: "page must be a number" })
  .int("page must be a whole number")
  .min(1, "page must be at least 1")
  .max(1_000_000)
  .default(1);
const perPage = z.coerce
  .number({ error: "per_page must be a number" })
  .int("per_page must be a whole number")
  .min(1, "per_page must be between 1 and 100")
  .max(100, "per_page must be between 1 and 100")
  .default(10);

export const listOrdersQuery = z
  .object({
    page: pageNumber,
    per_page: perPage,
    source: z.enum(["crypto", "card"], { error: "source must be crypto or card" }).optional(),
  })
  .strict();
export type ListOrdersQuery = z.infer<typeof listOrdersQuery>;

/** Where a page of a customer's list stands, and how many there are in all. */
const pageFields = {
  current_page: z.number(),
  last_page: z.number(),
  per_page: z.number(),
  total: z.number(),
  from: z.number().nullable(),
  to: z.number().nullable(),
};

export const orderPage = z.object({ success: z.literal(true), data: z.array(order), ...pageFields });
export type OrderPage = z.infer<typeof orderPage>;

/** Balance changes that are not orders, as the history shows them: the free GB of a new account
 * (`bonus`), an operator's correction (`adjustment`), a group-buy deposit turned into data
 * (`deposit`), and data a refund or dispute took back (`refund`, `chargeback`). */
export const LEDGER_HISTORY_KINDS = ["bonus", "adjustment", "deposit", "refund", "chargeback"] as const;
export type LedgerHistoryKind = (typeof LEDGER_HISTORY_KINDS)[number];

/** GET /history: one page of the caller's orders and other balance changes, newest first. */
export const historyQuery = z.object({ page: pageNumber, per_page: perPage }).strict();
export type HistoryQuery = z.infer<typeof historyQuery>;

export const orderHistoryEntry = z.object({
  kind: z.literal("order"),
  /** Unique across the history: `order:<order id>`. */
  id: z.string(),
  created_at: z.string(),
  order,
});

export const ledgerHistoryEntry = z.object({
  kind: z.enum(LEDGER_HISTORY_KINDS),
  /** Unique across the history: `ledger:<entry id>`. */
  id: z.string(),
  created_at: z.string(),
  /** Data added (positive) or taken back (negative). */
  gb: z.number(),
  note: z.string().nullable(),
  /** The order a refund, chargeback or deposit belongs to. */
  order_id: z.string().nullable(),
});

export const historyEntry = z.discriminatedUnion("kind", [orderHistoryEntry, ledgerHistoryEntry]);
export type HistoryEntry = z.infer<typeof historyEntry>;
export type LedgerHistoryEntry = z.infer<typeof ledgerHistoryEntry>;

export const historyPage = z.object({ success: z.literal(true), data: z.array(historyEntry), ...pageFields });
export type HistoryPage = z.infer<typeof historyPage>;

/** GET /transactions/{orderId}/receipt: a paid order and who issues its receipt. */
export const receipt = z.object({
  order,
  operator: z.object({ name: z.string(), address_lines: z.array(z.string()) }),
});
export type Receipt = z.infer<typeof receipt>;
export const receiptResponse = z.object({ success: z.literal(true), data: receipt });

/** POST /stripe/sessions: the hosted card page of a waiting card order. */
export const cardSessionRequest = z
  .object({ order_id: z.string({ error: "order_id is required" }).min(1).max(64) })
  .strict();
export type CardSessionRequest = z.infer<typeof cardSessionRequest>;
export const cardSessionResponse = z.object({
  success: z.literal(true),
  data: z.object({ redirect_url: z.string() }),
});
export type CardSessionResponse = z.infer<typeof cardSessionResponse>;
