import { errorResponse } from "@bytetoll/contracts";
import { z } from "zod";
import { type App, requireUser } from "../../types.ts";
import { errors } from "../orders/schemas.ts";

const sessionRequest = z
  .object({ order_id: z.string({ error: "order_id is required" }).min(1).max(64) })
  .strict();
const sessionResponse = z.object({ success: z.literal(true), data: z.object({ redirect_url: z.string() }) });

/** POST /stripe/sessions: where to send the customer to pay a card order (Stripe Checkout, or the
 * sandbox card page outside production). */
export async function cardRoutes(app: App) {
  app.post(
    "/stripe/sessions",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["payments"],
        summary: "Open the hosted card payment page for a card order",
        security: [{ bearer: [] }],
        body: sessionRequest,
        response: {
          200: sessionResponse,
          ...errors,
          409: errorResponse,
          502: errorResponse,
          503: errorResponse,
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.orders.startCardCheckout(requireUser(request).id, request.body.order_id),
    }),
  );
}
