import { z } from "zod";
import { sessionUserSchema } from "./auth.ts";
import { isWalletAddress } from "./deals.ts";
import { successEnvelope } from "./envelope.ts";

export const REFUND_ADDRESS_MAX = 128;
export const LOW_BALANCE_THRESHOLD_DEFAULT_GB = 1;
export const LOW_BALANCE_THRESHOLD_MAX_GB = 100_000;

export const REFUND_ADDRESS_INVALID =
  "refund_address must be a wallet address (0x… or a Solana address), or empty to clear it.";

/** Empty (after trimming) or null clears the address. Refunds of unmet group buys are paid to it
 * without asking again, so it must be a wallet a withdrawal could name (the same rule). */
const refundAddressField = z
  .string({ error: "refund_address must be a string (or empty to clear it)." })
  .trim()
  .max(REFUND_ADDRESS_MAX, `refund_address must be at most ${REFUND_ADDRESS_MAX} characters.`)
  .refine((value) => value === "" || isWalletAddress(value), REFUND_ADDRESS_INVALID)
  .nullable()
  .transform((value) => (value ? value : null));

/** Below this balance (GB; bytes are kept) the customer gets one e-mail; null = off. */
const lowBalanceThresholdField = z
  .number({ error: "low_balance_threshold_gb must be a number of GB (or null to turn the alert off)." })
  .min(0.01, "low_balance_threshold_gb must be at least 0.01.")
  .max(
    LOW_BALANCE_THRESHOLD_MAX_GB,
    `low_balance_threshold_gb must be at most ${LOW_BALANCE_THRESHOLD_MAX_GB}.`,
  )
  .nullable();

/**
 * PATCH /account/profile: either field or both; a field left out keeps its value. The messages
 * name the field as sent so the error handler passes them through unchanged.
 */
export const profileUpdateSchema = z
  .object({
    refund_address: refundAddressField.optional(),
    low_balance_threshold_gb: lowBalanceThresholdField.optional(),
  })
  .refine((body) => body.refund_address !== undefined || body.low_balance_threshold_gb !== undefined, {
    message: "Send refund_address, low_balance_threshold_gb or both.",
  });
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
/** What the web sends. */
export type ProfileUpdateRequest = z.input<typeof profileUpdateSchema>;

/** GET and PATCH /account/profile: the session's user (so the client can put it straight into
 * the session cache) and the low-balance alert threshold. */
export const profileSchema = sessionUserSchema.extend({ low_balance_threshold_gb: z.number().nullable() });
export type Profile = z.infer<typeof profileSchema>;
export const profileResponse = successEnvelope(profileSchema);
export type ProfileResponse = z.infer<typeof profileResponse>;
