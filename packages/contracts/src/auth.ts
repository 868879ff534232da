import { z } from "zod";
import { isValidEmail, normalizeEmail } from "./email.ts";
import { successEnvelope } from "./envelope.ts";
import { MAX_ORDER_USD } from "./order-constants.ts";
import { twoFactorChallengeSchema } from "./second-factor.ts";

/** The e-mail as the server keys accounts by it: trimmed, lower-cased, without a trailing dot
 * after the domain (one account per address however it is typed). */
export const emailSchema = z
  .string({ error: "Email is required for login." })
  .overwrite(normalizeEmail)
  .min(1, "Email is required for login.")
  .refine(isValidEmail, "Please enter a valid email address.");

/** Proxy usernames and passwords are URL-safe printable ASCII (docs/product.md#gateway). */
const printable = (field: string, max: number) =>
  z
    .string()
    .max(max, `${field} must be at most ${max} characters`)
    .regex(/^[\x21-\x7e]*$/, `${field} must be printable ASCII without spaces`);

/** Order ids travel in the link path (/magic/auth/order/{orderId}): URL-safe only. */
export const orderIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "orderId must be 1-64 letters, digits, - or _");

/**
 * docs/product.md#login. `dealId` is the decoded deal id (null when `di` did not decode);
 * `purchaseAmount` a whole number of USD > 0 — omit it (or send null) when `usd` is absent or 0.
 */
export const loginRequestSchema = z.object({
  email: emailSchema,
  addFreeCredit: z.boolean().optional(),
  username: printable("username", 128).optional(),
  password: printable("password", 256).optional(),
  dealId: z.number().int().positive("dealId must be a whole number greater than 0").nullable().optional(),
  purchaseAmount: z
    .number()
    .int("purchaseAmount must be a whole number of USD")
    .positive("purchaseAmount must be greater than 0")
    .max(MAX_ORDER_USD, `purchaseAmount must be a whole number of USD from 1 to ${MAX_ORDER_USD}`)
    .nullable()
    .optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** POST /magic/check → data.orderId, always null: the check writes nothing (no account, no
 * order) until the e-mailed link proves the address; POST /auth/magic/verify answers the order. */
export const magicCheckResponse = successEnvelope(z.object({ orderId: z.string().nullable() }));
export type MagicCheckResponse = z.infer<typeof magicCheckResponse>;

/** POST /auth/login: the login request plus the order the link should land on. */
export const sendLoginLinkRequestSchema = loginRequestSchema.extend({
  orderId: orderIdSchema.nullable().optional(),
});
export type SendLoginLinkRequest = z.infer<typeof sendLoginLinkRequestSchema>;

export const LOGIN_LINK_SENT = "Login link sent";
export const LOGIN_RATE_LIMITED = "Too many login requests. Please wait a few minutes and try again.";
export const LOGIN_LINK_INVALID = "This login link is invalid or has expired.";

/**
 * POST /auth/magic/verify: the magic_credential from the link. `username`/`password` are the
 * prefilled anonymous credentials the same browser sent with POST /auth/login: the set named in
 * that request is attached only when they are presented again here, so a link someone else asked
 * for never attaches their credentials to this account.
 */
export const magicVerifyRequestSchema = z.object({
  access_token: z
    .string({ error: "access_token is required" })
    .min(1, "access_token is required")
    .max(512, "access_token is too long"),
  username: printable("username", 128).optional(),
  password: printable("password", 256).optional(),
});
export type MagicVerifyRequest = z.infer<typeof magicVerifyRequestSchema>;

/** `token` is the app JWT to send as `Authorization: Bearer`; `exp` its expiry in epoch seconds;
 * `order_id` the pending order made from the login request's purchaseAmount (null without one). */
export const signedInSchema = z.object({
  token: z.string(),
  exp: z.number().int(),
  email: z.string(),
  id: z.string(),
  order_id: z.string().nullable(),
});
export type SignedIn = z.infer<typeof signedInSchema>;
/** POST /auth/2fa/verify answers the same once the factor is right. */
export const signedInResponse = successEnvelope(signedInSchema);

/** The token, or — when the account has a second factor — the challenge to trade for it. */
export const magicVerifyResponse = successEnvelope(z.union([signedInSchema, twoFactorChallengeSchema]));
export type MagicVerifyResponse = z.infer<typeof magicVerifyResponse>;

/** `is_operator`: the e-mail is in ADMIN_EMAILS, so the dashboard links the operator's console
 * (docs/product.md#operators) without asking the admin API, which refuses every customer. */
export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  refund_address: z.string().nullable(),
  is_operator: z.boolean(),
  /** An authenticator app or a passkey is on. */
  second_factor: z.boolean(),
  /** An operator without a second factor while ADMIN_2FA=required: the console and the admin API
   * refuse them until they add one. */
  operator_factor_missing: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;
export const sessionResponse = successEnvelope(sessionUserSchema);
export type SessionResponse = z.infer<typeof sessionResponse>;
