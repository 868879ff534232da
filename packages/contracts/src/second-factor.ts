import { z } from "zod";
import { successEnvelope } from "./envelope.ts";

/** How many recovery codes turning a factor on gives, each usable once. */
export const RECOVERY_CODE_COUNT = 10;
/** Wrong codes allowed per account and per address in FACTOR_WINDOW_MINUTES before 429. */
export const FACTOR_FAILURES_ALLOWED = 5;
export const FACTOR_WINDOW_MINUTES = 15;
export const FACTOR_CODE_INVALID = "That code is not right, or it was used already.";
export const FACTOR_RATE_LIMITED = "Too many wrong codes. Please wait 15 minutes and try again.";
export const FACTOR_CHALLENGE_INVALID = "This sign-in has expired. Please ask for a new login link.";
export const OPERATOR_FACTOR_REQUIRED =
  "Operators need a second factor: add an authenticator app or a passkey in your profile first.";

/** A 6-digit authenticator code; spaces (as apps show them) are dropped. */
export const totpCodeSchema = z
  .string({ error: "code is required" })
  .transform((value) => value.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "code must be the 6 digits your authenticator app shows"));

/** A recovery code as shown (xxxxx-xxxxx); case, spaces and dashes do not matter. */
export const recoveryCodeSchema = z
  .string()
  .max(64, "recovery_code is too long")
  .transform((value) => value.replace(/[\s-]+/g, "").toLowerCase())
  .pipe(z.string().regex(/^[a-z2-7]{10}$/, "recovery_code must be one of your 10-character recovery codes"));

/** A WebAuthn response as @simplewebauthn/browser produces it; the server checks its contents. */
const webauthnResponseSchema = z
  .looseObject({ id: z.string().max(1024), rawId: z.string().max(1024), type: z.literal("public-key") })
  .refine((value) => JSON.stringify(value).length <= 16_384, "the passkey response is too large");

/** WebAuthn options for navigator.credentials (the browser library's JSON form). */
const webauthnOptionsSchema = z.record(z.string(), z.unknown());

export const totpCodeRequestSchema = z.object({ code: totpCodeSchema });
export type TotpCodeRequest = z.input<typeof totpCodeRequestSchema>;

/** POST /auth/2fa/totp/disable: a current code or an unused recovery code. */
export const totpDisableRequestSchema = z
  .object({ code: totpCodeSchema.optional(), recovery_code: recoveryCodeSchema.optional() })
  .refine((body) => (body.code === undefined) !== (body.recovery_code === undefined), {
    message: "Send either code or recovery_code",
  });
export type TotpDisableRequest = z.input<typeof totpDisableRequestSchema>;

/** POST /auth/2fa/totp/setup: the secret to type in, the same as an otpauth:// link and a QR code
 * (PNG data URL). Pending until enabled with a code. */
export const totpSetupResponse = successEnvelope(
  z.object({ secret: z.string(), otpauth_url: z.string(), qr_code: z.string() }),
);
export type TotpSetupResponse = z.infer<typeof totpSetupResponse>;

/** Shown once: only their hashes are kept. */
export const recoveryCodesResponse = successEnvelope(z.object({ recovery_codes: z.array(z.string()) }));
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** GET /auth/2fa: the caller's factors. */
export const factorStatusSchema = z.object({
  totp: z.boolean(),
  passkeys: z.array(passkeySchema),
  recovery_codes_left: z.number().int(),
});
export type FactorStatus = z.infer<typeof factorStatusSchema>;
export const factorStatusResponse = successEnvelope(factorStatusSchema);

/** POST /auth/2fa/passkeys/options → the registration options for navigator.credentials.create. */
export const passkeyOptionsResponse = successEnvelope(webauthnOptionsSchema);

/** POST /auth/2fa/passkeys: the browser's registration response. The first factor of an account
 * also brings its recovery codes (otherwise `recovery_codes` is empty). */
export const passkeyRegisterRequestSchema = z.object({
  name: z.string().trim().min(1, "name is required").max(60, "name must be at most 60 characters"),
  response: webauthnResponseSchema,
});
export type PasskeyRegisterRequest = z.input<typeof passkeyRegisterRequestSchema>;
export const passkeyRegisterResponse = successEnvelope(
  z.object({ passkey: passkeySchema, recovery_codes: z.array(z.string()) }),
);
export type PasskeyRegisterResponse = z.infer<typeof passkeyRegisterResponse>;

/** With a factor on, POST /auth/magic/verify answers this instead of a token: `challenge` is
 * single use, lives 10 minutes, and is traded with a factor at POST /auth/2fa/verify.
 * `passkey_options` (authentication options) is there when the account has passkeys. */
export const twoFactorChallengeSchema = z.object({
  two_factor_required: z.literal(true),
  challenge: z.string(),
  methods: z.array(z.enum(["totp", "passkey", "recovery_code"])),
  passkey_options: webauthnOptionsSchema.nullable(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;

/** POST /auth/2fa/verify: the challenge and exactly one factor. */
export const twoFactorVerifyRequestSchema = z
  .object({
    challenge: z.string().min(1, "challenge is required").max(128, "challenge is too long"),
    code: totpCodeSchema.optional(),
    recovery_code: recoveryCodeSchema.optional(),
    passkey: webauthnResponseSchema.optional(),
  })
  .refine(
    (body) =>
      [body.code, body.recovery_code, body.passkey].filter((value) => value !== undefined).length === 1,
    { message: "Send one of code, recovery_code or passkey" },
  );
export type TwoFactorVerifyRequest = z.input<typeof twoFactorVerifyRequestSchema>;
