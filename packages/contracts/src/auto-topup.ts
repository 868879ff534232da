import { z } from "zod";
import { successEnvelope } from "./envelope.ts";
import { MAX_ORDER_USD } from "./order-constants.ts";

/** The settings a new account starts from: "Auto top-up: off", below 1 GB, +$50, $500 a month. */
export const AUTO_TOPUP_DEFAULTS = {
  threshold_gb: 1,
  amount_usd: 50,
  monthly_cap_usd: 500,
} as const;
export const AUTO_TOPUP_THRESHOLD_MIN_GB = 0.01;
export const AUTO_TOPUP_THRESHOLD_MAX_GB = 100_000;
/** A month's cap may be at most this (a thousand top-ups of the largest order is not a cap). */
export const AUTO_TOPUP_MONTHLY_CAP_MAX_USD = 1_000_000;
/** Failed charges in a row that turn auto top-up off. */
export const AUTO_TOPUP_MAX_FAILURES = 3;

/** 409 when auto top-up is turned on without a saved card. */
export const ADD_A_CARD_FIRST = "Add a card first";

const twoDecimals = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

/** A USD amount as typed: a number with at most 2 decimals, named in every message. */
const usdField = (name: string, max: number) =>
  z
    .number({ error: `${name} must be a number of USD` })
    .positive(`${name} must be greater than 0`)
    .max(max, `${name} must be at most ${max.toLocaleString("en-US")}`)
    .refine(twoDecimals, `${name} must have at most 2 decimals`);

export const autoTopupCardSchema = z.object({ brand: z.string(), last4: z.string() });
export type AutoTopupCard = z.infer<typeof autoTopupCardSchema>;

/** GET /settings/auto-topup (docs/product.md#auto-topup). */
export const autoTopupSettingsSchema = z.object({
  enabled: z.boolean(),
  threshold_gb: z.number(),
  amount_usd: z.number(),
  monthly_cap_usd: z.number(),
  card: autoTopupCardSchema.nullable(),
  /** Top-ups charged (or being charged) this calendar month, UTC. */
  spent_this_month_usd: z.number(),
  /** Failed charges in a row; AUTO_TOPUP_MAX_FAILURES of them turned it off. */
  failures: z.number().int(),
});
export type AutoTopupSettings = z.infer<typeof autoTopupSettingsSchema>;
export const autoTopupSettingsResponse = successEnvelope(autoTopupSettingsSchema);
export type AutoTopupSettingsResponse = z.infer<typeof autoTopupSettingsResponse>;

/** PUT /settings/auto-topup: every field. `amount_usd` must also be at least the minimum order at
 * the list price (the server knows the price) and `monthly_cap_usd` at least `amount_usd`. */
export const autoTopupUpdateSchema = z
  .object({
    enabled: z.boolean({ error: "enabled must be true or false" }),
    threshold_gb: z
      .number({ error: "threshold_gb must be a number of GB" })
      .min(AUTO_TOPUP_THRESHOLD_MIN_GB, `threshold_gb must be at least ${AUTO_TOPUP_THRESHOLD_MIN_GB}`)
      .max(
        AUTO_TOPUP_THRESHOLD_MAX_GB,
        `threshold_gb must be at most ${AUTO_TOPUP_THRESHOLD_MAX_GB.toLocaleString("en-US")}`,
      ),
    amount_usd: usdField("amount_usd", MAX_ORDER_USD),
    monthly_cap_usd: usdField("monthly_cap_usd", AUTO_TOPUP_MONTHLY_CAP_MAX_USD),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.monthly_cap_usd < body.amount_usd) {
      ctx.addIssue({
        code: "custom",
        path: ["monthly_cap_usd"],
        message: "monthly_cap_usd must be at least amount_usd",
      });
    }
  });
export type AutoTopupUpdate = z.infer<typeof autoTopupUpdateSchema>;

/** POST /settings/auto-topup/card: the hosted card page that saves a card for auto top-up. */
export const autoTopupCardSetupResponse = successEnvelope(z.object({ redirect_url: z.string() }));
export type AutoTopupCardSetupResponse = z.infer<typeof autoTopupCardSetupResponse>;

/** An auto top-up's line on the Buy Data card: "Auto top-up: on below 1 GB, +$50". */
export function autoTopupSummary(
  settings: Pick<AutoTopupSettings, "enabled" | "threshold_gb" | "amount_usd">,
) {
  if (!settings.enabled) return "Auto top-up: off";
  const gb = settings.threshold_gb.toLocaleString("en-US", { maximumFractionDigits: 2 });
  const usd = settings.amount_usd.toLocaleString("en-US", {
    minimumFractionDigits: Number.isInteger(settings.amount_usd) ? 0 : 2,
    maximumFractionDigits: 2,
  });
  return `Auto top-up: on below ${gb} GB, +$${usd}`;
}
