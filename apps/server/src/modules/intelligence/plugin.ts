import { Prober } from "@bytetoll/gateway";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createDomainOverrides, type DomainOverridesService } from "./domain-overrides.ts";
import { Learner } from "./learner.ts";
import { intelligenceRoutes } from "./routes.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** `domains`: the operator's list of domains and their global overrides (admin routes). */
    intelligence: { learner: Learner; domains: DomainOverridesService };
  }
}

/** The Intelligence module: its routes, and the learner, which runs from ready to close. Probes
 * leave through the pools and egress rules the gateway's environment describes
 * (MOBILE_UPSTREAMS, DATACENTER_UPSTREAMS, EGRESS_ALLOW…), so they go where customer traffic goes.
 * Under NODE_ENV=test nothing is probed unless a test hands the learner a prober: test data must
 * not send requests to real sites. */
async function intelligencePlugin(app: FastifyInstance) {
  const learner = new Learner({
    database: app.database,
    logger: app.log.child({ module: "intelligence" }),
    prober: app.config.NODE_ENV === "test" ? null : new Prober(app.config.gateway),
  });
  app.decorate("intelligence", { learner, domains: createDomainOverrides(app.database) });
  await app.register(intelligenceRoutes);
  app.addHook("onReady", async () => learner.start());
  app.addHook("preClose", async () => learner.stop());
}

export default fp(intelligencePlugin, { name: "intelligence" });
