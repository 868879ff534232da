import { errorResponse, successEnvelope } from "@bytetoll/contracts";
import { z } from "zod";
import type { App } from "../../types.ts";

const statusResponse = successEnvelope(z.object({ status: z.literal("ok") }));

/** Liveness (the process answers) and readiness (the database answers) for load balancers. */
export async function healthRoutes(app: App) {
  app.get(
    "/healthz",
    {
      config: { rateLimit: false },
      schema: { tags: ["health"], summary: "The process is up", response: { 200: statusResponse } },
    },
    async () => ({ success: true as const, data: { status: "ok" as const } }),
  );

  app.get(
    "/readyz",
    {
      config: { rateLimit: false },
      schema: {
        tags: ["health"],
        summary: "The database answers",
        response: { 200: statusResponse, 503: errorResponse },
      },
    },
    async (request, reply) => {
      try {
        await app.database.query("SELECT 1");
        return { success: true as const, data: { status: "ok" as const } };
      } catch (error) {
        request.log.error({ err: error }, "database ping failed");
        return reply.code(503).send({ success: false, message: "Database unavailable" });
      }
    },
  );
}
