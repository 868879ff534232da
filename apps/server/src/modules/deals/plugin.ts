import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { dealActivatedEvent } from "../webhooks/index.ts";
import { createDealsService, type DealsService } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    deals: DealsService;
  }
}

/** How often deals that are due move (start, end, activation, stock release), by one instance a
 * turn. Every move is a conditional UPDATE besides, so a move made twice changes nothing. */
const DEAL_SCHEDULER_MS = 5_000;

/** One deals service per app (routes, orders, admin all go through it), and its scheduled moves. */
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
  app.jobs.every("deals.move-due", DEAL_SCHEDULER_MS, () => app.deals.tick());
}

export default fp(dealsPlugin, { name: "deals", dependencies: ["jobs", "money-events", "webhooks"] });
