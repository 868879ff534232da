import { MAX_ORDER_USD } from "@bytetoll/contracts";

/** docs/product.md#routes-and-layout/§9: Buy More starts at 100 GB and never goes below 1 GB. */
export const DEFAULT_PURCHASE_GB = 100;
export const MIN_PURCHASE_GB = 1;

/** USD for `gb` at `pricePerGb`, in whole cents as the API accepts at most 2 decimals. */
export function totalUsd(gb: number, pricePerGb: number): number {
  return Math.round(gb * pricePerGb * 100) / 100;
}

export function maxPurchaseGb(pricePerGb: number): number {
  return Math.floor(MAX_ORDER_USD / pricePerGb);
}

/** Why `input` is not a GB amount that can be bought, or null when it is. */
export function gbAmountProblem(input: string, pricePerGb: number): string | null {
  const gb = Number(input);
  if (input.trim() === "" || !Number.isInteger(gb) || gb < MIN_PURCHASE_GB)
    return "Enter a whole number of GB, at least 1.";
  const max = maxPurchaseGb(pricePerGb);
  if (gb > max) return `You can buy at most ${max.toLocaleString("en-US")} GB at once.`;
  return null;
}

/** Why `input` is not a USD amount the API accepts (> 0, ≤ 100,000, ≤ 2 decimals), or null. */
export function usdAmountProblem(input: string): string | null {
  const usd = Number(input);
  if (input.trim() === "" || !Number.isFinite(usd) || usd <= 0) return "Enter an amount greater than $0.";
  if (usd > MAX_ORDER_USD) return `The most one order can be is $${MAX_ORDER_USD.toLocaleString("en-US")}.`;
  // Read from the text: binary floats cannot tell 1.10 from 1.1000000001.
  if (!/^\s*\d*(\.\d{0,2})?\s*$/.test(input)) return "Use at most 2 decimals.";
  return null;
}

/** docs/product.md#validation: usd must be a positive finite number, otherwise 0; rounded to a whole number. */
export function parseUsdParam(value: string | null): number {
  if (value === null) return 0;
  const usd = Number(value);
  return Number.isFinite(usd) && usd > 0 ? Math.round(usd) : 0;
}
