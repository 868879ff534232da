import { MIN_DEPOSIT_USD } from "@bytetoll/contracts";

/**
 * The flash-sale quantity after the field reads `text`: whole numbers only; an emptied field is 0
 * (Buy disabled); anything else (letters, signs, decimals) is ignored and `current` stays.
 */
export function nextQuantity(text: string, current: number): number {
  if (text.trim() === "") return 0;
  return /^\d+$/.test(text.trim()) ? Number(text.trim()) : current;
}

/** Why a deposit amount cannot be used (whole USD, at least the minimum), or null. */
export function depositProblem(text: string): string | null {
  const value = Number(text);
  if (text.trim() === "" || !Number.isInteger(value) || value < MIN_DEPOSIT_USD) {
    return `Enter a whole number of USD, at least $${MIN_DEPOSIT_USD}.`;
  }
  return null;
}
