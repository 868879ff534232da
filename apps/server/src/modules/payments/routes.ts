import type { App } from "../../types.ts";
import { cardRoutes } from "./card-routes.ts";
import { cryptoWebhookRoutes } from "./crypto-webhook.ts";
import { sandboxRoutes } from "./sandbox-routes.ts";
import { stripeWebhookRoutes } from "./stripe-webhook.ts";

/** Card checkout, provider callbacks, and (outside production) the sandbox's dev endpoints. */
export async function paymentRoutes(app: App) {
  await app.register(cardRoutes);
  await app.register(stripeWebhookRoutes);
  await app.register(cryptoWebhookRoutes);
  if (app.payments.sandboxEnabled) await app.register(sandboxRoutes);
}
