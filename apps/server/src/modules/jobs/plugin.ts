import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createJobRunner, type JobRunner } from "./runner.ts";

declare module "fastify" {
  interface FastifyInstance {
    jobs: JobRunner;
  }
}

/** The job runner, shared by every module's background work: modules define their jobs while
 * they register; it runs them from ready to close. Registered before them, so at close it stops
 * (and waits for running jobs) before their resources go. */
async function jobsPlugin(app: FastifyInstance) {
  const jobs = createJobRunner({
    database: app.database,
    log: app.log.child({ module: "jobs" }),
    leaseMs: app.config.JOBS_LEASE_MS,
    pollMs: app.config.JOBS_POLL_MS,
  });
  app.decorate("jobs", jobs);
  app.addHook("onReady", async () => jobs.start());
  app.addHook("preClose", async () => jobs.stop());
}

export default fp(jobsPlugin, { name: "jobs" });
