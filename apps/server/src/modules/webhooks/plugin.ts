import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createDispatcher } from "./dispatcher.ts";
import { webhookRoutes } from "./routes.ts";
import { createWebhookService, type WebhookService } from "./service.ts";
import { createWebhookTarget } from "./target.ts";

declare module "fastify" {
  interface FastifyInstance {
    webhooks: { service: WebhookService; dispatcher: { kick(): void } };
  }
}

/** The job that sends due deliveries. */
const DELIVER_JOB = "webhooks.deliver";

/** Webhooks: the endpoints' routes, the service other modules raise events through, and the
 * delivery job, run every WEBHOOK_POLL_MS and at once when this instance raised an event. */
async function webhooksPlugin(app: FastifyInstance) {
  const target = createWebhookTarget(app.config.gateway);
  const kick = () => app.jobs.runSoon(DELIVER_JOB);
  const service = createWebhookService({
    database: app.database,
    appSecret: app.config.JWT_SECRET,
    target,
    raised: kick,
  });
  const dispatcher = createDispatcher({
    db: app.database.db,
    target,
    openSecret: service.openSecret,
    retryBaseMs: app.config.WEBHOOK_RETRY_BASE_MS,
    log: app.log.child({ module: "webhooks" }),
  });
  app.jobs.every(DELIVER_JOB, app.config.WEBHOOK_POLL_MS, dispatcher.round);
  app.decorate("webhooks", { service, dispatcher: { kick } });
  await app.register(webhookRoutes);
}

export default fp(webhooksPlugin, { name: "webhooks", dependencies: ["jobs"] });
