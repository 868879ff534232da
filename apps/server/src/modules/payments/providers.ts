import Stripe from "stripe";
import type { Config } from "../../config.ts";
import type { CheckoutProviders } from "../../lib/payment-provider.ts";
import { createNowPaymentsProvider, type NowPaymentsProvider } from "./nowpayments-provider.ts";
import { createSandboxProvider } from "./sandbox-provider.ts";
import { createStripeProvider } from "./stripe-provider.ts";

export interface PaymentsOptions {
  /** Where the Stripe client sends API calls (tests point it at a local stand-in). */
  stripeApi?: { host: string; port: number; protocol: "http" | "https" };
}

export interface Payments extends CheckoutProviders {
  /** The NOWPayments client (the crypto provider with CRYPTO_PROVIDER=nowpayments), which the IPN
   * callback reads payments back through. */
  nowpayments: NowPaymentsProvider | null;
  /** The Stripe client and webhook secret, present only with STRIPE_SECRET_KEY. */
  stripe: { client: Stripe; webhookSecret: string } | null;
  /** The sandbox's dev endpoints exist: sandbox in use and not production. */
  sandboxEnabled: boolean;
}

/** Builds the payment providers once from the configuration. */
export function createPayments(config: Config, options: PaymentsOptions = {}): Payments {
  const sandbox = createSandboxProvider(config.APP_URL);
  const nowpayments =
    config.CRYPTO_PROVIDER === "nowpayments"
      ? createNowPaymentsProvider({
          apiUrl: config.NOWPAYMENTS_API_URL,
          // Both are required by the config schema when CRYPTO_PROVIDER=nowpayments.
          apiKey: config.NOWPAYMENTS_API_KEY ?? "",
          callbackUrl: `${config.APP_URL}/webhooks/crypto`,
        })
      : null;
  const crypto = nowpayments ?? sandbox;
  const stripe =
    config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
      ? {
          client: new Stripe(config.STRIPE_SECRET_KEY, {
            maxNetworkRetries: 1,
            timeout: 10_000,
            ...options.stripeApi,
          }),
          webhookSecret: config.STRIPE_WEBHOOK_SECRET,
        }
      : null;
  const card = stripe
    ? createStripeProvider(stripe.client, config.APP_URL)
    : config.isProduction
      ? null
      : sandbox;
  return {
    crypto,
    card,
    nowpayments,
    stripe,
    sandboxEnabled: !config.isProduction && (crypto === sandbox || card === sandbox),
  };
}
