import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { issuerOf, orderPublisher } from "../orders/index.ts";
import { createSettlement, type Settlement } from "./settlement.ts";

declare module "fastify" {
  interface FastifyInstance {
    settlement: Settlement;
  }
}

/** One settlement per app: every provider callback (and the sandbox) credits through it. */
async function settlementPlugin(app: FastifyInstance) {
  app.decorate(
    "settlement",
    createSettlement({
      database: app.database,
      publishOrder: orderPublisher(app.moneyEvents.order),
      deals: app.deals,
      issuer: issuerOf(app.config),
    }),
  );
}

export default fp(settlementPlugin, {
  name: "settlement",
  dependencies: ["orders", "deals", "money-events"],
});
