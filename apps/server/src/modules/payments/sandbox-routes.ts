import { errorResponse, MAX_ORDER_USD, orderResponse } from "@bytetoll/contracts";
import { z } from "zod";
import type { App } from "../../types.ts";
import { cardCheckoutPage } from "./sandbox-card-page.ts";

const orderParams = z.object({ id: z.string().max(64) });
const payBody = z
  .object({
    amount_usd: z
      .number({ error: "amount_usd must be a number" })
      .positive("amount_usd must be greater than 0")
      .max(MAX_ORDER_USD, `amount_usd must be at most ${MAX_ORDER_USD}`),
  })
  .strict()
  // A bodiless POST arrives as null.
  .nullish();

const errors = { 400: errorResponse, 404: errorResponse, 429: errorResponse };

/** The sandbox's stand-ins for a payment network; never registered in production. */
export async function sandboxRoutes(app: App) {
  // The card page's form posts url-encoded; it carries no fields we read.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, _body, done) => done(null, undefined),
  );

  app.post(
    "/dev/orders/:id/pay",
    {
      schema: {
        tags: ["dev"],
        summary: "Sandbox: mark an order paid (optionally only amount_usd of it)",
        params: orderParams,
        body: payBody,
        response: { 200: orderResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.settlement.paySandbox(request.params.id, request.body?.amount_usd),
    }),
  );

  app.get(
    "/dev/card-checkout/:id",
    { schema: { tags: ["dev"], summary: "Sandbox card payment page", params: orderParams } },
    async (request, reply) => {
      const row = await app.orders.find(request.params.id);
      reply.type("text/html; charset=utf-8");
      if (row?.method !== "card" || row.provider !== "sandbox") {
        return reply.code(404).send(cardCheckoutPage.missing());
      }
      return cardCheckoutPage.form(row, app.config.APP_URL);
    },
  );

  // A plain HTML form posts here (no script needed), so it answers with a redirect, not JSON.
  app.post(
    "/dev/card-checkout/:id/pay",
    { schema: { tags: ["dev"], summary: "Sandbox card page: pay", params: orderParams } },
    async (request, reply) => {
      const row = await app.orders.find(request.params.id);
      if (row?.method !== "card" || row.provider !== "sandbox") {
        return reply.code(404).type("text/html; charset=utf-8").send(cardCheckoutPage.missing());
      }
      await app.settlement.paySandbox(row.id);
      return reply.redirect(`${app.config.APP_URL}/checkout?order_id=${encodeURIComponent(row.id)}`, 303);
    },
  );
}
