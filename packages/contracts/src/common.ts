import { z } from "zod";

/** Every error the API returns: a 4xx with a message a person can read. */
/** `code` says why for refusals a client acts on (insufficient_role, insufficient_scope). */
export const errorResponse = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

/** docs/product.md#formats-and-limits: GB values are bytes / 1e9, rounded to 2 decimals. */
export const BYTES_PER_GB = 1e9;
export function bytesToGb(bytes: number): number {
  return Math.round((bytes / BYTES_PER_GB) * 100) / 100;
}

/** Text never holds NUL (U+0000): PostgreSQL cannot store it, and no person types it. */
export const NUL_IN_TEXT = "Text must not contain NUL (\\u0000) characters.";

/** True when `value` is or contains (in any nested object, array or key) a string with a NUL.
 * Iterative, so a deeply nested body cannot exhaust the stack; raw bytes are not text. */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") {
      if (next.includes("\u0000")) return true;
    } else if (next && typeof next === "object" && !ArrayBuffer.isView(next)) {
      for (const [key, nested] of Object.entries(next)) {
        if (key.includes("\u0000")) return true;
        pending.push(nested);
      }
    }
  }
  return false;
}
