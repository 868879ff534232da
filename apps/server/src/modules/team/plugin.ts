import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createTeamService, type TeamService } from "./service.ts";

declare module "fastify" {
  interface FastifyInstance {
    team: TeamService;
  }
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The team service, and the activity list's record of what members change on an account (a
 * member's successful writes; reads are not kept). */
async function teamPlugin(app: FastifyInstance) {
  const service = createTeamService({
    database: app.database,
    config: app.config,
    mailer: app.mailer,
    log: app.log,
  });
  app.decorate("team", service);
  app.addHook("onResponse", async (request, reply) => {
    const user = request.user;
    if (!user || user.actorId === user.id || !WRITES.has(request.method) || reply.statusCode >= 400) return;
    service.recordAction(user, `${request.method} ${request.routeOptions.url ?? request.url.split("?")[0]}`);
  });
}

export default fp(teamPlugin, { name: "team", dependencies: ["auth"] });
