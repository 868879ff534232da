// Integer money (decision 026). Money is whole cents (what customers pay) or whole micro-dollars
// (prices, costs); data is whole bytes. Each conversion has one rounding rule, written beside it,
// and products are taken in BigInt so no float ever decides a byte or a cent. Kept free of zod:
// the gateway and the checkout pages import it.

import { BYTES_PER_GB } from "./common.ts";

export const MICROS_PER_USD = 1_000_000;
export const MICROS_PER_CENT = 10_000;
export const CENTS_PER_USD = 100;

/** A money rule broken by the caller: the operation stops (a logged 500), nothing is clamped. */
export class MoneyAssertionError extends Error {
  override name = "MoneyAssertionError";
}

/** Stops the operation unless `value` is a whole number that a double holds exactly. */
export function assertWhole(value: number, what: string): number {
  if (!Number.isSafeInteger(value))
    throw new MoneyAssertionError(`${what} must be a whole number, not ${value}`);
  return value;
}

/** USD as a person or provider writes it (a decimal in a double) → cents: to the nearest cent,
 * because the double only approximates the decimal (19.99 is 1998.9999… cents). */
export function usdToCents(usd: number): number {
  if (!Number.isFinite(usd)) throw new MoneyAssertionError(`not an amount of USD: ${usd}`);
  return Math.round(usd * CENTS_PER_USD);
}

/** USD as written → micro-dollars: to the nearest micro-dollar (prices have at most 4 decimals). */
export function usdToMicros(usd: number): number {
  if (!Number.isFinite(usd)) throw new MoneyAssertionError(`not an amount of USD: ${usd}`);
  return Math.round(usd * MICROS_PER_USD);
}

/** Cents → micro-dollars: exact. */
export const centsToMicros = (cents: number): number => assertWhole(cents, "cents") * MICROS_PER_CENT;

/** Cents → USD for display and the API (a decimal with at most 2 places). */
export const centsToUsd = (cents: number): number => assertWhole(cents, "cents") / CENTS_PER_USD;

/** GB as a person types them (an operator's credit, the free data, a threshold) → bytes: to the
 * nearest byte, because 0.3 GB typed means 300,000,000 bytes, not the double's 299,999,999.99…. */
export function gbToBytes(gb: number): number {
  if (!Number.isFinite(gb)) throw new MoneyAssertionError(`not an amount of GB: ${gb}`);
  return Math.round(gb * BYTES_PER_GB);
}

/** A BigInt result back to a number, unless a double cannot hold it exactly. */
function exactNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new MoneyAssertionError(`${what} ${value} is too large to hold exactly`);
  }
  return Number(value);
}

function positivePrice(priceMicrosPerGb: number): bigint {
  assertWhole(priceMicrosPerGb, "price in micro-dollars per GB");
  if (priceMicrosPerGb <= 0)
    throw new MoneyAssertionError(`a price must be above 0, not ${priceMicrosPerGb}`);
  return BigInt(priceMicrosPerGb);
}

/** The bytes `cents` buy at `priceMicrosPerGb`: rounded down — a purchase never hands out data
 * that was not paid for. */
export function bytesForCents(cents: number, priceMicrosPerGb: number): number {
  const price = positivePrice(priceMicrosPerGb);
  const paid = BigInt(assertWhole(cents, "cents")) * BigInt(MICROS_PER_CENT) * BigInt(BYTES_PER_GB);
  return exactNumber(paid / price, "bytes");
}

/** What `bytes` cost at `priceMicrosPerGb`, in micro-dollars: rounded up — used data is never
 * priced below what it used. */
export function costMicros(bytes: number, priceMicrosPerGb: number): number {
  const price = positivePrice(priceMicrosPerGb);
  const product = BigInt(assertWhole(bytes, "bytes")) * price;
  const gb = BigInt(BYTES_PER_GB);
  return exactNumber((product + gb - 1n) / gb, "micro-dollars");
}

/** The cents that buy at least `bytes` at `priceMicrosPerGb` (what the pages charge for N GB):
 * rounded up, so the order the server prices by `bytesForCents` gives every byte asked for. */
export function centsForBytes(bytes: number, priceMicrosPerGb: number): number {
  const micros = BigInt(costMicros(bytes, priceMicrosPerGb));
  const cent = BigInt(MICROS_PER_CENT);
  return exactNumber((micros + cent - 1n) / cent, "cents");
}

/** Bytes relayed at one price, in balance bytes of another (datacenter traffic debited from the
 * premium balance): rounded up, for the same reason as costMicros. */
export function balanceBytesFor(
  bytes: bigint,
  priceMicrosPerGb: number,
  balancePriceMicrosPerGb: number,
): bigint {
  const from = positivePrice(priceMicrosPerGb);
  const to = positivePrice(balancePriceMicrosPerGb);
  return (bytes * from + to - 1n) / to;
}

/** `part` of `whole` (a refund of a payment, both as the provider reports them) applied to
 * `total` whole units: rounded down, never more than `total`, 0 when `whole` is 0. Exact on
 * millionths: a float share would round 69% of some totals down by one, and a later identical
 * report would then "owe" it again. */
export function shareOf(total: number, part: number, whole: number): number {
  assertWhole(total, "total");
  const p = BigInt(Math.max(0, usdToMicros(part)));
  const w = BigInt(Math.max(0, usdToMicros(whole)));
  if (w === 0n) return 0;
  return Math.min(total, Number((BigInt(total) * p) / w));
}
