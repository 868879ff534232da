// Kept free of zod: the checkout pages import these values and must stay light.

export const NETWORKS = ["solana", "polygon", "base", "ethereum"] as const;
export type Network = (typeof NETWORKS)[number];

/** `refunded`: a paid order whose credit was taken back (refund or chargeback). */
export const PAYMENT_STATUSES = [
  "waiting",
  "paid",
  "partially_paid",
  "failed",
  "expired",
  "refunded",
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_TOKENS = {
  solana: "USDC (Solana)",
  polygon: "USDC (Matic)",
  base: "USDC (Base)",
  ethereum: "USDC (Ethereum)",
  card: "USDC (Card Payment)",
} as const;

export const MIN_ORDER_USD = 1;
export const MAX_ORDER_USD = 100_000;
