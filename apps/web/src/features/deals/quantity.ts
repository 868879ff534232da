import { type Deal, FLASH_SALE_UNIT_GB, MIN_DEPOSIT_USD } from "@bytetoll/contracts";

/** Whole flash-sale units still for sale: what the deal has not reserved yet. */
export function flashSaleUnitsLeft(deal: Pick<Deal, "deal_reserved_gb" | "deal_target_gb">): number {
  return Math.max(0, Math.floor((deal.deal_target_gb - deal.deal_reserved_gb) / FLASH_SALE_UNIT_GB));
}

/** The quantity field after the customer typed `text`: digits are kept and capped at `left`; a
 * decimal point is kept, so "1.5" reads as such (and is refused) rather than becoming 15; anything
 * else (letters, signs) is ignored and `current` stays. */
export function nextQuantityText(text: string, current: string, left: number): string {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return String(Math.min(Number(trimmed), left));
  if (trimmed === "" || /^\d*[.,]\d*$/.test(trimmed)) return trimmed;
  return current;
}

/** The units the field's text asks for: a whole number, else 0 (Buy disabled). */
export const quantityOf = (text: string): number => (/^\d+$/.test(text) ? Number(text) : 0);

/** Why a deposit amount cannot be used (whole USD, at least the minimum), or null. */
export function depositProblem(text: string): string | null {
  const value = Number(text);
  if (text.trim() === "" || !Number.isInteger(value) || value < MIN_DEPOSIT_USD) {
    return `Enter a whole number of USD, at least $${MIN_DEPOSIT_USD}.`;
  }
  return null;
}
