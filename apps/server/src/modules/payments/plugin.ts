import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { orderPublisher, publishOrderChange } from "../orders/index.ts";
import { createSettlement, type Settlement } from "./settlement.ts";

declare module "fastify" {
  interface FastifyInstance {
    settlement: Settlement;
  }
}

/** One settlement per app: every provider callback (and the sandbox) credits through it. */
async function settlementPlugin(app: FastifyInstance) {
  const publish = publishOrderChange(app);
  app.decorate(
    "settlement",
    createSettlement({
      database: app.database,
      publishOrder: orderPublisher((order) => {
        publish(order);
        app.webhooks.service.orderChanged(order, app.log);
      }),
      deals: app.deals,
    }),
  );
}

export default fp(settlementPlugin, { name: "settlement", dependencies: ["orders", "deals", "webhooks"] });
