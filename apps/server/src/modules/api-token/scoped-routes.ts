import {
  createdScopedTokenResponse,
  createScopedTokenSchema,
  errorResponse,
  okResponse,
  scopedTokenIdParams,
  scopedTokensResponse,
} from "@bytetoll/contracts";
import { type App, requireUser } from "../../types.ts";
import { createScopedTokens } from "./scoped-tokens.ts";

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
};
const security = [{ bearer: [] }];
const TAGS = ["account"];

/** GET/POST /api-tokens and DELETE /api-tokens/{id}: the account's scoped API tokens. */
export async function scopedTokenRoutes(app: App) {
  const tokens = createScopedTokens(app.database);
  const preHandler = app.authenticate;
  const config = { access: "tokens:write" as const };

  app.get(
    "/api-tokens",
    {
      preHandler,
      config,
      schema: {
        tags: TAGS,
        summary: "The account's scoped API tokens (never the tokens themselves)",
        security,
        response: { 200: scopedTokensResponse, ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await tokens.list(requireUser(request).id) }),
  );

  app.post(
    "/api-tokens",
    {
      preHandler,
      config,
      schema: {
        tags: TAGS,
        summary: "Create a token limited to scopes; the answer is the only time it is shown",
        security,
        body: createScopedTokenSchema,
        response: { 200: createdScopedTokenResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await tokens.create(requireUser(request), request.body),
    }),
  );

  app.delete(
    "/api-tokens/:id",
    {
      preHandler,
      config,
      schema: {
        tags: TAGS,
        summary: "Delete a scoped token; it is refused at once",
        security,
        params: scopedTokenIdParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await tokens.remove(requireUser(request), request.params.id);
      return { success: true as const };
    },
  );
}
