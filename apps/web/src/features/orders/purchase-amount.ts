import {
  BYTES_PER_GB,
  belowMinimumOrderMessage,
  bytesForCents,
  CENTS_PER_USD,
  centsForBytes,
  centsToUsd,
  DEFAULT_PURCHASE_GB,
  MAX_ORDER_USD,
  MIN_PURCHASE_GB,
  minimumOrderUsd,
  usdToCents,
  usdToMicros,
} from "@bytetoll/contracts";

// Buy More and checkout share the server's limits (docs/product.md#formats-and-limits).
export { DEFAULT_PURCHASE_GB, MIN_PURCHASE_GB };

/** USD for `gb` whole GB at `pricePerGb`: the money module's rule (whole cents, rounded up, so
 * the order the server prices from them buys every GB asked for). */
export function totalUsd(gb: number, pricePerGb: number): number {
  return centsToUsd(centsForBytes(gb * BYTES_PER_GB, usdToMicros(pricePerGb)));
}

/** The most whole GB one order (at most MAX_ORDER_USD) buys at `pricePerGb`. */
export function maxPurchaseGb(pricePerGb: number): number {
  return Math.floor(bytesForCents(MAX_ORDER_USD * CENTS_PER_USD, usdToMicros(pricePerGb)) / BYTES_PER_GB);
}

/** The GB `usd` buys at `pricePerGb`, by the server's rule for an order (rounded down to a byte). */
export function gbForUsd(usd: number, pricePerGb: number): number {
  return bytesForCents(usdToCents(usd), usdToMicros(pricePerGb)) / BYTES_PER_GB;
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

export { minimumOrderUsd };

const money = (usd: number) =>
  `$${usd.toLocaleString("en-US", { minimumFractionDigits: Number.isInteger(usd) ? 0 : 2, maximumFractionDigits: 2 })}`;

/** Why `usd` is outside one order's bounds, or null; `minimumUsd` from minimumOrderUsd. The
 * minimum's wording is the server's own (it refuses the same orders). */
export function usdOutOfBounds(usd: number, minimumUsd: number, forDeal: boolean): string | null {
  if (usd > MAX_ORDER_USD) return `The most one order can be is ${money(MAX_ORDER_USD)}.`;
  if (usd < minimumUsd) return belowMinimumOrderMessage(minimumUsd, forDeal);
  return null;
}

/** Why `input` is not a USD amount the API accepts (within the bounds, ≤ 2 decimals), or null. */
export function usdAmountProblem(input: string, minimumUsd: number, forDeal: boolean): string | null {
  const usd = Number(input);
  if (input.trim() === "" || !Number.isFinite(usd) || usd <= 0) return "Enter an amount greater than $0.";
  const bounds = usdOutOfBounds(usd, minimumUsd, forDeal);
  if (bounds) return bounds;
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
