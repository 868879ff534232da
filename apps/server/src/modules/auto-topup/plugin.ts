import { parseChange } from "@bytetoll/db";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createPerKeyThrottle } from "../../lib/per-key-throttle.ts";
import type { App } from "../../types.ts";
import { type CardVault, createSandboxCardVault } from "./card-vault.ts";
import { createAutoTopupRepository } from "./repository.ts";
import { autoTopupRoutes } from "./routes.ts";
import { sandboxCardSetupRoutes } from "./sandbox-routes.ts";
import { type AutoTopupSettingsService, createAutoTopupSettings } from "./settings-service.ts";
import { createStripeCardVault } from "./stripe-card-vault.ts";
import { createTopups, type Topups } from "./topups.ts";

declare module "fastify" {
  interface FastifyInstance {
    autoTopup: { settings: AutoTopupSettingsService; topups: Topups };
  }
}

/** A balance is judged at most this often per account (a gateway flushes every 1–2 s). */
const JUDGE_INTERVAL_MS = 1_000;
/** How often top-up orders left waiting are charged (by one instance a turn). */
const SWEEP_MS = 30_000;

/**
 * Auto top-up by card: the settings and card routes, and a listener on the change feed's balance
 * changes (whoever wrote them: a gateway's flush, a refund, an operator) that tops up once per
 * fall below the threshold, whichever of the instances hears it first.
 */
async function autoTopupPlugin(app: FastifyInstance) {
  const repository = createAutoTopupRepository(app.database);
  const sandbox = app.payments.card?.name === "sandbox" ? createSandboxCardVault(app.config.APP_URL) : null;
  const stripe = app.payments.stripe ? createStripeCardVault(app.payments.stripe.client) : null;
  const vaults: Partial<Record<CardVault["name"], CardVault>> = {
    ...(sandbox ? { sandbox } : {}),
    ...(stripe ? { stripe } : {}),
  };
  const log = app.log.child({ module: "auto-topup" });
  const topups = createTopups({
    database: app.database,
    repository,
    vaults,
    orders: app.orders,
    settlement: app.settlement,
    webhooks: {
      emit: (event, tx) => app.webhooks.service.emit(event, tx),
      sent: () => app.webhooks.dispatcher.kick(),
    },
    mail: (message) =>
      app.mailer
        .send(message)
        .catch((error: unknown) => log.warn({ err: error }, "auto top-up e-mail not sent")),
    appUrl: app.config.APP_URL,
    log,
  });
  const throttle = createPerKeyThrottle(JUDGE_INTERVAL_MS, (userId) =>
    topups
      .balanceChanged(userId)
      .catch((error: unknown) => log.warn({ err: error, userId }, "auto top-up check failed")),
  );
  const settings = createAutoTopupSettings({
    database: app.database,
    repository,
    vault: stripe ?? sandbox,
    vaults,
    config: app.config,
    judge: (userId) => throttle.trigger(userId),
    log,
  });
  app.decorate("autoTopup", { settings, topups });
  await app.register(autoTopupRoutes(settings));
  if (!stripe && sandbox) await app.register(sandboxCardSetupRoutes(settings));

  app.changeFeed.onChange((payload) => {
    const change = payload === null ? null : parseChange(payload);
    if (change?.kind === "user") throttle.trigger(change.key);
  });
  app.jobs.every("auto-topup.charge-waiting", SWEEP_MS, async () => {
    await topups.sweep();
  });
  app.addHook("preClose", () => throttle.stop());
}

export default fp(autoTopupPlugin as (app: App) => Promise<void>, {
  name: "auto-topup",
  dependencies: ["jobs", "payments", "orders", "settlement", "webhooks", "change-feed"],
});
