import { upstreamsKey } from "@bytetoll/db";
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

/** The Intelligence module: its routes, and the learner, a job run every tick from ready to close. Probes
 * leave through the pools and egress rules the gateway's environment describes
 * (MOBILE_UPSTREAMS, DATACENTER_UPSTREAMS, EGRESS_ALLOW…) and the console's exits, so they go
 * where customer traffic goes.
 * Under NODE_ENV=test nothing is probed unless a test hands the learner a prober: test data must
 * not send requests to real sites. */
async function intelligencePlugin(app: FastifyInstance) {
  const logger = app.log.child({ module: "intelligence" });
  // Probes obey the operator's global destination rules, read live as the gateway reads them,
  // and go through the console's exits too (decision 042), opened with the key the admin API
  // seals them with.
  const host = app.config.NODE_ENV === "test" ? null : app.gatewayHost;
  const probing = await host?.startLearnerProbes({
    database: app.database,
    config: app.config.gateway,
    logger,
    consoleExitsKey: upstreamsKey(app.config.gateway.upstreamsKey?.secret, app.config.DATA_DIR),
  });
  if (probing) app.addHook("onClose", probing.stop);
  const learner = new Learner({
    database: app.database,
    logger,
    prober: probing?.probes ?? null,
  });
  app.decorate("intelligence", { learner, domains: createDomainOverrides(app.database) });
  await app.register(intelligenceRoutes);
  // Defined once ready, so the interval a test configured before then is the one used.
  app.addHook("onReady", async () => {
    app.jobs.every("intelligence.learn", learner.settings.tickMs, () => learner.tick());
  });
}

export default fp(intelligencePlugin, { name: "intelligence", dependencies: ["jobs"] });
