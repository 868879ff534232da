import { bytesToGb } from "@bytetoll/contracts";
import { parseChange } from "@bytetoll/db";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createPerKeyThrottle } from "../../lib/per-key-throttle.ts";
import { lowBalanceEmail } from "./low-balance-email.ts";
import { createBalanceAlertRepository } from "./repository.ts";

/** A customer's balance is pushed and checked at most this often (a gateway flushes every 1–2 s). */
export const BALANCE_PUSH_INTERVAL_MS = 1_000;

/**
 * Follows balance changes on the database's change feed (`user:<id>`, whoever wrote them: the
 * gateway's flush, a payment, an operator): pushes `balance.updated` to the user's sockets on this
 * instance, and sends the low-balance e-mail. Every instance hears every change; the e-mail's
 * conditional UPDATE lets exactly one of them send it.
 */
async function balanceAlertsPlugin(app: FastifyInstance) {
  const repository = createBalanceAlertRepository(app.database);

  async function pushBalance(userId: string): Promise<void> {
    if (!app.realtime.hasLocalListeners(userId)) return;
    const balanceBytes = await repository.balanceBytes(userId);
    if (balanceBytes === null) return;
    app.realtime.publishBalanceLocally(userId, {
      balance_gb: bytesToGb(balanceBytes),
      balance_bytes: balanceBytes,
    });
  }

  async function alertIfCrossed(userId: string): Promise<void> {
    const check = await repository.settleFlag(userId);
    if (!check?.crossed) return;
    // The customer's systems hear of it too, whether or not the e-mail goes out.
    if (check.notified_at)
      await app.webhooks.service.balanceLow(userId, check.balance_bytes, check.notified_at);
    try {
      await app.mailer.send(lowBalanceEmail(check.email, check.balance_bytes, app.config.APP_URL));
    } catch (error) {
      app.log.warn({ err: error, userId }, "low-balance e-mail failed; the next balance change retries it");
      await repository.forgetNotice(userId);
    }
  }

  const throttle = createPerKeyThrottle(BALANCE_PUSH_INTERVAL_MS, async (userId) => {
    const results = await Promise.allSettled([
      pushBalance(userId),
      alertIfCrossed(userId),
      app.webhooks.service.balanceChanged(userId),
    ]);
    for (const result of results) {
      if (result.status === "rejected")
        app.log.warn({ err: result.reason, userId }, "balance change handling failed");
    }
  });

  app.changeFeed.onChange((payload) => {
    // Null: the feed is back after an outage and changes may have been missed; the sockets
    // here get their balance again (the e-mail check runs again at the user's next change).
    if (payload === null) {
      for (const userId of app.realtime.localListeners()) throttle.trigger(userId);
      return;
    }
    const change = parseChange(payload);
    if (change?.kind === "user") throttle.trigger(change.key);
  });
  app.addHook("preClose", () => throttle.stop());
}

export default fp(balanceAlertsPlugin, {
  name: "balance-alerts",
  dependencies: ["change-feed", "realtime", "webhooks"],
});
