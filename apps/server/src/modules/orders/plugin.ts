import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createOrdersService, type OrdersService } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    orders: OrdersService;
  }
}

/** How often overdue orders are expired (by one instance a turn); reads also expire what they show. */
const EXPIRY_SWEEP_MS = 60_000;

/** One orders service per app (routes, admin and sign-in make and read orders through it), plus
 * the sweep that turns unpaid orders `expired` so the open checkout page hears about it. */
async function ordersPlugin(app: FastifyInstance) {
  app.decorate(
    "orders",
    createOrdersService({
      database: app.database,
      config: app.config,
      payments: app.payments,
      publish: app.moneyEvents.order,
      pages: app.changeFeed.caches.orderPages,
      deals: app.deals,
    }),
  );

  app.jobs.every("orders.expire", EXPIRY_SWEEP_MS, async () => {
    await app.orders.expireDue();
  });
}

export default fp(ordersPlugin, {
  name: "orders",
  dependencies: ["jobs", "payments", "money-events", "change-feed", "deals"],
});
