import Hashids from "hashids";

/** docs/product.md#data-shapes/§9: deal ids in URLs use a reversible short-id encoding, fixed salt, minimum length 8. */
const DEAL_ID_SALT = "bytetoll-deals";
const DEAL_ID_MIN_LENGTH = 8;

const hashids = new Hashids(DEAL_ID_SALT, DEAL_ID_MIN_LENGTH);

/** Encodes a deal's numeric id for a URL (the `di` query parameter). */
export function encodeDealId(id: number): string {
  if (!Number.isSafeInteger(id) || id < 0)
    throw new RangeError(`Deal id must be a non-negative integer: ${id}`);
  return hashids.encode(id);
}

/** The deal id inside an encoded `di` value, or null when it is not one we made. */
export function decodeDealId(encoded: string | null | undefined): number | null {
  if (!encoded) return null;
  try {
    const numbers = hashids.decode(encoded);
    if (numbers.length !== 1) return null;
    const [id] = numbers;
    return typeof id === "number" && Number.isSafeInteger(id) ? id : null;
  } catch {
    // Characters outside the alphabet make hashids throw; SPEC says decode failure yields null.
    return null;
  }
}
