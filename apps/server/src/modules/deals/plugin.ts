import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { dealActivatedEvent } from "../webhooks/index.ts";
import { createDealScheduler } from "./scheduler.ts";
import { createDealsService, type DealsService } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    deals: DealsService;
  }
}

/** One deals service per app (routes, orders, admin all go through it), and its scheduler. */
async function dealsPlugin(app: FastifyInstance) {
  app.decorate(
    "deals",
    createDealsService({
      database: app.database,
      publish: app.moneyEvents.deal,
      listPricePerGbUsd: app.config.PRICE_PER_GB_USD,
      joinedDealActivated: (tx, userId, deal) =>
        app.webhooks.service.emit(dealActivatedEvent(userId, deal), tx),
    }),
  );
  const scheduler = createDealScheduler(app.deals, app.log);
  app.addHook("onReady", async () => scheduler.start());
  app.addHook("preClose", () => scheduler.stop());
}

export default fp(dealsPlugin, { name: "deals", dependencies: ["money-events", "webhooks"] });
