import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createDispatcher, type Dispatcher } from "./dispatcher.ts";
import { webhookRoutes } from "./routes.ts";
import { createWebhookService, type WebhookService } from "./service.ts";
import { createWebhookTarget } from "./target.ts";

declare module "fastify" {
  interface FastifyInstance {
    webhooks: { service: WebhookService; dispatcher: Dispatcher };
  }
}

/** Webhooks: the endpoints' routes, the service other modules raise events through, and the
 * dispatcher that sends them from ready to close. */
async function webhooksPlugin(app: FastifyInstance) {
  const target = createWebhookTarget(app.config.gateway);
  let dispatcher: Dispatcher | null = null;
  const service = createWebhookService({
    database: app.database,
    appSecret: app.config.JWT_SECRET,
    target,
    raised: () => dispatcher?.kick(),
  });
  dispatcher = createDispatcher({
    db: app.database.db,
    target,
    openSecret: service.openSecret,
    retryBaseMs: app.config.WEBHOOK_RETRY_BASE_MS,
    pollMs: app.config.WEBHOOK_POLL_MS,
    log: app.log.child({ module: "webhooks" }),
  });
  app.decorate("webhooks", { service, dispatcher });
  await app.register(webhookRoutes);
  app.addHook("onReady", async () => dispatcher.start());
  app.addHook("preClose", async () => dispatcher.stop());
}

export default fp(webhooksPlugin, { name: "webhooks" });
