import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Order } from "./schemas.ts";
import { createOrdersService, type OrdersService } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    orders: OrdersService;
  }
}

/** How often each instance expires overdue orders; reads also expire what they show. */
const EXPIRY_SWEEP_MS = 60_000;

/** Sends an order's change to its owner's pages. The event makes the page read the balance and
 * the history again: it goes out once this instance's caches have dropped what the change made
 * stale. */
export function publishOrderChange(app: FastifyInstance) {
  return (order: Order) => {
    app.changeFeed
      .sync()
      .then(() => app.realtime.publishOrder(order))
      .catch((error: unknown) => app.log.warn({ err: error }, "order event not sent"));
  };
}

/** One orders service per app (routes, admin and sign-in make and read orders through it), plus
 * the sweep that turns unpaid orders `expired` so the open checkout page hears about it. */
async function ordersPlugin(app: FastifyInstance) {
  app.decorate(
    "orders",
    createOrdersService({
      database: app.database,
      config: app.config,
      payments: app.payments,
      publish: publishOrderChange(app),
      pages: app.changeFeed.caches.orderPages,
      deals: app.deals,
    }),
  );

  let timer: NodeJS.Timeout | undefined;
  app.addHook("onReady", async () => {
    timer = setInterval(() => {
      app.orders
        .expireDue()
        .catch((error: unknown) => app.log.warn({ err: error }, "order expiry sweep failed"));
    }, EXPIRY_SWEEP_MS);
    timer.unref();
  });
  app.addHook("preClose", async () => {
    clearInterval(timer);
  });
}

export default fp(ordersPlugin, {
  name: "orders",
  dependencies: ["payments", "realtime", "change-feed", "deals"],
});
