import { z } from "zod";
import { MAX_ORDER_USD, MIN_ORDER_USD, NETWORKS, PAYMENT_STATUSES } from "./order-constants.ts";

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
});
export type Order = z.infer<typeof order>;

export const orderResponse = z.object({ success: z.literal(true), data: order });

export const listOrdersQuery = z
  .object({
    page: z.coerce
      .number({ error: "page must be a number" })
      .int("page must be a whole number")
      .min(1, "page must be at least 1")
      .max(1_000_000)
      .default(1),
    per_page: z.coerce
      .number({ error: "per_page must be a number" })
      .int("per_page must be a whole number")
      .min(1, "per_page must be between 1 and 100")
      .max(100, "per_page must be between 1 and 100")
      .default(10),
    source: z.enum(["crypto", "card"], { error: "source must be crypto or card" }).optional(),
  })
  .strict();
export type ListOrdersQuery = z.infer<typeof listOrdersQuery>;

export const orderPage = z.object({
  success: z.literal(true),
  data: z.array(order),
  current_page: z.number(),
  last_page: z.number(),
  per_page: z.number(),
  total: z.number(),
  from: z.number().nullable(),
  to: z.number().nullable(),
});
export type OrderPage = z.infer<typeof orderPage>;

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
