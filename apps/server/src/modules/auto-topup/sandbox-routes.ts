import { z } from "zod";
import type { App } from "../../types.ts";
import { cardSetupPage } from "./sandbox-setup-page.ts";
import type { AutoTopupSettingsService } from "./settings-service.ts";

const setupParams = z.object({ id: z.uuid({ error: "Card page not found" }) });
const cardQuery = z.object({ card: z.enum(["pays", "declines"]).default("pays") });

/** The sandbox's card page for auto top-up; never registered in production or with Stripe. */
export function sandboxCardSetupRoutes(settings: AutoTopupSettingsService) {
  return async (app: App) => {
    // The card page's forms post url-encoded; they carry no fields we read.
    app.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string" },
      (_request, _body, done) => done(null, undefined),
    );

    app.get(
      "/dev/card-setup/:id",
      { schema: { tags: ["dev"], summary: "Sandbox: the page that saves a test card", params: setupParams } },
      async (request, reply) => {
        reply.type("text/html; charset=utf-8");
        const row = await settings.findSetup(request.params.id);
        if (!row) return reply.code(404).send(cardSetupPage.missing());
        return cardSetupPage.form(request.params.id, `${app.config.APP_URL}/`);
      },
    );

    // A plain HTML form posts here (no script needed), so it answers with a redirect, not JSON.
    app.post(
      "/dev/card-setup/:id",
      {
        schema: {
          tags: ["dev"],
          summary: "Sandbox card page: save the chosen test card",
          params: setupParams,
          querystring: cardQuery,
        },
      },
      async (request, reply) => {
        const row = await settings.findSetup(request.params.id);
        if (!row) return reply.code(404).type("text/html; charset=utf-8").send(cardSetupPage.missing());
        await settings.saveSandboxCard(request.params.id, request.query.card);
        return reply.redirect(
          `${app.config.APP_URL}/?card_setup=${encodeURIComponent(request.params.id)}`,
          303,
        );
      },
    );
  };
}
