import { allowlistRequestSchema, allowlistResponse, errorResponse } from "@bytetoll/contracts";
import { type App, requireUser } from "../../types.ts";
import { createAllowlistService } from "./service.ts";

const errors = { 400: errorResponse, 401: errorResponse, 409: errorResponse, 429: errorResponse };

/** GET and POST /settings/allowlist: addresses admitted to the proxy without credentials. */
export async function allowlistRoutes(app: App) {
  const service = createAllowlistService(app.database);

  app.get(
    "/settings/allowlist",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["settings"],
        summary: "The caller's IP allowlist, and the address this request came from",
        security: [{ bearer: [] }],
        response: { 200: allowlistResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { ips: await service.list(requireUser(request).id), your_ip: request.ip },
    }),
  );

  app.post(
    "/settings/allowlist",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["settings"],
        summary: "Replace the IP allowlist (at most 20 addresses or ranges up to /24 and /48)",
        security: [{ bearer: [] }],
        body: allowlistRequestSchema,
        response: { 200: allowlistResponse, ...errors },
      },
    },
    async (request) => {
      const { ips } = request.body;
      return {
        success: true as const,
        data: { ips: await service.replace(requireUser(request).id, ips), your_ip: request.ip },
      };
    },
  );
}
