import { sessionResponse } from "@bytetoll/contracts";
import { z } from "zod";

export const REFUND_ADDRESS_MAX = 128;

/** Wallet addresses, memo-style ids and "network:address" pairs all fit this alphabet; anything
 * else (spaces, quotes, markup) is refused rather than stored and echoed back later. */
const REFUND_ADDRESS_CHARACTERS = /^[A-Za-z0-9:._-]*$/;

/**
 * PATCH /account/profile. The messages name the field as sent (refund_address) so the error
 * handler passes them through unchanged. Empty (after trimming) or null clears the address.
 */
export const profileUpdateSchema = z.object({
  refund_address: z
    .string({ error: "refund_address must be a string (or empty to clear it)." })
    .trim()
    .max(REFUND_ADDRESS_MAX, `refund_address must be at most ${REFUND_ADDRESS_MAX} characters.`)
    .regex(
      REFUND_ADDRESS_CHARACTERS,
      "refund_address may contain only letters, digits and the characters : . _ -",
    )
    .nullable()
    .transform((value) => (value ? value : null)),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** Same shape as GET /auth/session, so the client can put it straight into the session cache. */
export const profileResponse = sessionResponse;
