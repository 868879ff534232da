import { cardSessionRequest, cardSessionResponse, errorResponse } from "@bytetoll/contracts";
import { type App, requireUser } from "../../types.ts";
import { errors } from "../orders/index.ts";

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
        body: cardSessionRequest,
        response: {
          200: cardSessionResponse,
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
