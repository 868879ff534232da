// Kept free of zod: the checkout pages import these values and must stay light.

export const NETWORKS = ["solana", "polygon", "base", "ethereum"] as const;
export type Network = (typeof NETWORKS)[number];

/** `refunded`: a paid order whose credit was taken back (refund or chargeback). `cancelled`: a
 * waiting order its customer called off (a payment that still arrives credits it, as after expiry). */
export const PAYMENT_STATUSES = [
  "waiting",
  "paid",
  "partially_paid",
  "failed",
  "expired",
  "refunded",
  "cancelled",
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The payment providers an order can be opened with (orders.provider). */
export const ORDER_PROVIDERS = ["sandbox", "nowpayments", "stripe"] as const;
/** Where an order came from: the customer's checkout, or an automatic top-up of the saved card. */
export const ORDER_ORIGINS = ["checkout", "auto_topup"] as const;
export type OrderProvider = (typeof ORDER_PROVIDERS)[number];

export const PAYMENT_TOKENS = {
  solana: "USDC (Solana)",
  polygon: "USDC (Matic)",
  base: "USDC (Base)",
  ethereum: "USDC (Ethereum)",
  card: "Card",
} as const;

/** One order's USD bounds: a deal's order (a $1 deposit) may be as small as MIN_ORDER_USD. */
export const MIN_ORDER_USD = 1;
export const MAX_ORDER_USD = 100_000;
/** Data bought at the list price: Buy More starts at DEFAULT_PURCHASE_GB, and neither it nor
 * checkout goes below MIN_PURCHASE_GB. */
export const MIN_PURCHASE_GB = 1;
export const DEFAULT_PURCHASE_GB = 100;

/** What some providers (and an operator's "mark paid") record as the payment's hash when there is
 * none: it names no transaction, so no page shows it as one. */
export const PLACEHOLDER_PAYIN_HASH = "DUMMY_TX_ID";

/** The least one order may be: MIN_PURCHASE_GB at the list price `pricePerGb`, or MIN_ORDER_USD for
 * a deal (which sells at its own price). The server refuses less, the pages do not offer it. */
export function minimumOrderUsd(pricePerGb: number, forDeal: boolean): number {
  const listMinimum = Math.round(MIN_PURCHASE_GB * pricePerGb * 100) / 100;
  return forDeal ? MIN_ORDER_USD : Math.max(MIN_ORDER_USD, listMinimum);
}

const usdText = (usd: number) =>
  `$${usd.toLocaleString("en-US", { minimumFractionDigits: Number.isInteger(usd) ? 0 : 2, maximumFractionDigits: 2 })}`;

/** The one wording, on the page and in the API's 400, for an order under `minimumUsd`. */
export function belowMinimumOrderMessage(minimumUsd: number, forDeal: boolean): string {
  return forDeal
    ? `The least one order can be is ${usdText(minimumUsd)}.`
    : `The least one order can be is ${usdText(minimumUsd)} (${MIN_PURCHASE_GB} GB).`;
}
