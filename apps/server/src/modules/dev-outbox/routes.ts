import { devOutboxMessagesResponse, devOutboxQuerySchema, errorResponse } from "@bytetoll/contracts";
import type { App } from "../../types.ts";
import { renderOutboxPage } from "./outbox-page.ts";
import { listOutboxMessages } from "./repository.ts";

/** Registered only outside production and without SMTP (see app.ts). */
export async function devOutboxRoutes(app: App) {
  app.get(
    "/dev/outbox",
    { schema: { tags: ["dev"], summary: "Dev outbox page (not in production)", hide: false } },
    async (_request, reply) => {
      const messages = await listOutboxMessages(app.database, undefined);
      return reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .send(renderOutboxPage(messages));
    },
  );

  app.get(
    "/dev/outbox/messages",
    {
      schema: {
        tags: ["dev"],
        summary: "Dev outbox messages as JSON, newest first (not in production)",
        querystring: devOutboxQuerySchema,
        response: { 200: devOutboxMessagesResponse, 400: errorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listOutboxMessages(app.database, request.query.to),
    }),
  );
}
