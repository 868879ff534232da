import {
  createSubuserSchema,
  errorResponse,
  okResponse,
  subuserIdParams,
  subuserListResponse,
  subuserResponse,
  updateSubuserSchema,
} from "@bytetoll/contracts";
import { AppError } from "../../errors.ts";
import { type App, requireUser } from "../../types.ts";
import { createSubusersService } from "./service.ts";

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const TAGS = ["subusers"];
const security = [{ bearer: [] }];

/** Password changes per IP and hour, as for the account's own proxy password. */
const passwordRateLimit = {
  rateLimit: {
    max: 60,
    timeWindow: 60 * 60_000,
    errorResponseBuilder: () =>
      new AppError(429, "Too many password changes. Please wait a while and try again.", "rate_limited"),
  },
};

export async function subusersRoutes(app: App) {
  const service = createSubusersService({
    database: app.database,
    appSecret: app.config.JWT_SECRET,
    log: app.log,
  });
  const preHandler = app.authenticate;

  app.post(
    "/subusers",
    {
      preHandler,
      schema: {
        tags: TAGS,
        summary: "Create a sub-user: its own proxy username and password, optionally with a data limit",
        security,
        body: createSubuserSchema,
        response: { 200: subuserResponse, 409: errorResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.create(requireUser(request).id, request.body),
    }),
  );

  app.get(
    "/subusers",
    {
      preHandler,
      schema: {
        tags: TAGS,
        summary: "The caller's sub-users, oldest first, with this period's use",
        security,
        response: { 200: subuserListResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await service.list(requireUser(request).id) }),
  );

  app.get(
    "/subusers/:id",
    {
      preHandler,
      schema: {
        tags: TAGS,
        summary: "One sub-user",
        security,
        params: subuserIdParams,
        response: { 200: subuserResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.get(requireUser(request).id, request.params.id),
    }),
  );

  app.patch(
    "/subusers/:id",
    {
      preHandler,
      schema: {
        tags: TAGS,
        summary: "Change a sub-user's label, limit, period, enabled flag or allowed sites",
        description:
          "Disabling refuses its proxy requests (403 subuser_disabled) and closes its open connections within a second on every gateway; a limit is read at the gateways' next lease renewal. " +
          'allowed_domains (up to 100 of "example.com" or "*.example.com", or null for any site) limits the sub-user to those sites on every front-end: anything else is refused with 403 destination_not_allowed; a change closes its open connections within a second.',
        security,
        params: subuserIdParams,
        body: updateSubuserSchema,
        response: { 200: subuserResponse, 409: errorResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.update(requireUser(request).id, request.params.id, request.body),
    }),
  );

  app.post(
    "/subusers/:id/password",
    {
      preHandler,
      config: passwordRateLimit,
      schema: {
        tags: TAGS,
        summary: "New password for a sub-user, same username; the old one is refused within a second",
        security,
        params: subuserIdParams,
        response: { 200: subuserResponse, 429: errorResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.regeneratePassword(requireUser(request).id, request.params.id),
    }),
  );

  app.delete(
    "/subusers/:id",
    {
      preHandler,
      schema: {
        tags: TAGS,
        summary: "Delete a sub-user: its credentials stop working within a second; its usage stays",
        security,
        params: subuserIdParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await service.remove(requireUser(request).id, request.params.id);
      return { success: true as const };
    },
  );
}
