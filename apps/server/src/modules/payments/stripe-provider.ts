import type Stripe from "stripe";
import { paymentUnavailable } from "../../errors.ts";
import type { CreatedPayment, PaymentProvider, PaymentRequest } from "../../lib/payment-provider.ts";

/** Stripe Checkout for card payments: one hosted session per order, metadata.order_id ties the
 * webhook back to it. */
export function createStripeProvider(stripe: Stripe, appUrl: string): PaymentProvider {
  return {
    name: "stripe",
    async createPayment(request: PaymentRequest): Promise<CreatedPayment> {
      const returnUrl = `${appUrl}/checkout?order_id=${encodeURIComponent(request.orderId)}`;
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create(
          {
            mode: "payment",
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: "usd",
                  unit_amount: request.amountCents,
                  product_data: { name: request.description },
                },
              },
            ],
            client_reference_id: request.orderId,
            metadata: { order_id: request.orderId },
            payment_intent_data: { metadata: { order_id: request.orderId } },
            success_url: returnUrl,
            cancel_url: returnUrl,
          },
          // A retried request for the same order gets the same session instead of a second one.
          { idempotencyKey: `checkout-${request.orderId}` },
        );
      } catch {
        throw paymentUnavailable("Card payments are unavailable right now. Please try again.");
      }
      if (!session.url) throw paymentUnavailable("Card payments are unavailable right now.");
      return {
        providerPaymentId: null,
        providerSessionId: session.id,
        payAddress: null,
        qrCode: null,
        priceAmountCents: null,
        redirectUrl: session.url,
      };
    },
  };
}
