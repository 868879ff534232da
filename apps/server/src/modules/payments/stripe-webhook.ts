import { errorResponse, okResponse } from "@bytetoll/contracts";
import type Stripe from "stripe";
import { AppError, notFound } from "../../errors.ts";
import type { App } from "../../types.ts";
import type { PaymentReading } from "./provider.ts";

const INVALID_SIGNATURE = "Invalid signature";

/** What each Checkout event means for its order; null for events that change nothing. */
function readingFor(
  event: Stripe.Event,
): { session: Stripe.Checkout.Session; reading: PaymentReading } | null {
  switch (event.type) {
    case "checkout.session.completed":
      // Delayed methods complete "unpaid" and settle later through async_payment_*.
      return event.data.object.payment_status === "paid"
        ? { session: event.data.object, reading: { status: "paid" } }
        : null;
    case "checkout.session.async_payment_succeeded":
      return { session: event.data.object, reading: { status: "paid" } };
    case "checkout.session.async_payment_failed":
      return { session: event.data.object, reading: { status: "failed" } };
    case "checkout.session.expired":
      return { session: event.data.object, reading: { status: "expired" } };
    default:
      return null;
  }
}

/** POST /webhooks/stripe: signature checked over the raw body; each event id is handled once. */
export async function stripeWebhookRoutes(app: App) {
  // Stripe signs the exact bytes it sent, so this route must see them unparsed.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  app.post(
    "/webhooks/stripe",
    {
      schema: {
        tags: ["payments"],
        summary: "Stripe webhook (Checkout events)",
        response: { 200: okResponse, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const stripe = app.payments.stripe;
      if (!stripe) throw notFound();
      const signature = request.headers["stripe-signature"];
      if (typeof signature !== "string" || !Buffer.isBuffer(request.body)) {
        throw new AppError(400, INVALID_SIGNATURE, "bad_signature");
      }
      let event: Stripe.Event;
      try {
        event = stripe.client.webhooks.constructEvent(request.body, signature, stripe.webhookSecret);
      } catch {
        throw new AppError(400, INVALID_SIGNATURE, "bad_signature");
      }
      const meaning = readingFor(event);
      if (!meaning) return { success: true as const };
      const orderId = meaning.session.metadata?.order_id ?? meaning.session.client_reference_id;
      const order = orderId ? await app.orders.find(orderId) : undefined;
      if (order?.provider !== "stripe") {
        // Signed by Stripe but not one of our checkouts (another integration on the same account).
        request.log.warn({ eventId: event.id }, "stripe event for an unknown order ignored");
        return { success: true as const };
      }
      await app.orders.settle(order.id, meaning.reading, {
        guard: (tx) => app.orders.recordStripeEvent(tx, event.id, event.type),
      });
      return { success: true as const };
    },
  );
}
