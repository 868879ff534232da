import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { MoneyEvents } from "../lib/money-events.ts";

declare module "fastify" {
  interface FastifyInstance {
    moneyEvents: MoneyEvents;
  }
}

/** The app's one publisher of order and deal changes (lib/money-events.ts). An order's event
 * makes the page read the balance and the history again, so it goes out once this instance's
 * caches have dropped what the change made stale. */
async function moneyEventsPlugin(app: FastifyInstance) {
  app.decorate("moneyEvents", {
    order(order) {
      app.webhooks.service.orderChanged(order, app.log);
      app.changeFeed
        .sync()
        .then(() => app.realtime.publishOrder(order))
        .catch((error: unknown) => app.log.warn({ err: error }, "order event not sent"));
    },
    deal(deal) {
      app.realtime.publishDeal(deal);
    },
  } satisfies MoneyEvents);
}

export default fp(moneyEventsPlugin, {
  name: "money-events",
  dependencies: ["realtime", "change-feed", "webhooks"],
});
