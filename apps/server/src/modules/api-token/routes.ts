import { apiTokenResponse, errorResponse } from "@bytetoll/contracts";
import { AppError } from "../../errors.ts";
import { type App, requireUser } from "../../types.ts";
import { createApiTokenService } from "./service.ts";

const errors = { 401: errorResponse, 429: errorResponse };

export async function apiTokenRoutes(app: App) {
  const service = createApiTokenService(app.database, app.config.JWT_SECRET);

  app.get(
    "/account/api-token",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["account"],
        summary: "The caller's personal API token (created on first read)",
        security: [{ bearer: [] }],
        response: { 200: apiTokenResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { token: await service.current(requireUser(request).id) },
    }),
  );

  app.post(
    "/account/api-token/regenerate",
    {
      preHandler: app.authenticate,
      config: {
        rateLimit: {
          max: 30,
          timeWindow: 60 * 60_000,
          errorResponseBuilder: () =>
            new AppError(429, "Too many token changes. Please wait a while and try again.", "rate_limited"),
        },
      },
      schema: {
        tags: ["account"],
        summary: "Replace the API token; the old one is revoked at once",
        security: [{ bearer: [] }],
        response: { 200: apiTokenResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { token: await service.regenerate(requireUser(request).id) },
    }),
  );
}
