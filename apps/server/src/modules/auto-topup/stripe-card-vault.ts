import Stripe from "stripe";
import { paymentUnavailable } from "../../errors.ts";
import type { CardVault, ChargeResult, SavedCard } from "./card-vault.ts";

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

/** What a payment intent's state means for the order: paid, still processing, or not paid. */
function resultOf(intent: Stripe.PaymentIntent): ChargeResult {
  if (intent.status === "succeeded") return { status: "paid", paymentId: intent.id };
  if (intent.status === "processing") return { status: "pending", paymentId: intent.id };
  const message =
    intent.last_payment_error?.message ??
    (intent.status === "requires_action"
      ? "Your bank asked to confirm this payment, which cannot be done automatically."
      : "Your card was declined.");
  return { status: "declined", paymentId: intent.id, message };
}

/** The saved card of the session's setup intent, once the customer completed the card page. */
async function cardOfSession(stripe: Stripe, sessionId: string): Promise<SavedCard | null> {
  const session = await stripe.checkout.sessions.retrieve(sessionId, {
    expand: ["setup_intent.payment_method"],
  });
  if (session.status !== "complete" || !session.setup_intent) return null;
  const intent =
    typeof session.setup_intent === "string"
      ? await stripe.setupIntents.retrieve(session.setup_intent, { expand: ["payment_method"] })
      : session.setup_intent;
  const method =
    typeof intent.payment_method === "string"
      ? await stripe.paymentMethods.retrieve(intent.payment_method)
      : intent.payment_method;
  if (intent.status !== "succeeded" || !method) return null;
  return {
    customerId: idOf(session.customer) ?? idOf(intent.customer),
    methodId: method.id,
    brand: method.card?.brand ?? method.type,
    last4: method.card?.last4 ?? "",
  };
}

/** Stripe: a customer per account, Checkout in setup mode to save a card, and a PaymentIntent
 * with the saved method (off_session + confirm) for each top-up. */
export function createStripeCardVault(stripe: Stripe): CardVault {
  return {
    name: "stripe",
    async startSetup({ setupId, userId, email, customerId, returnUrl }) {
      try {
        const customer =
          customerId ??
          (
            await stripe.customers.create(
              { email, metadata: { user_id: userId } },
              { idempotencyKey: `customer-${setupId}` },
            )
          ).id;
        const session = await stripe.checkout.sessions.create(
          {
            mode: "setup",
            customer,
            payment_method_types: ["card"],
            metadata: { user_id: userId, setup_id: setupId },
            setup_intent_data: { metadata: { user_id: userId, setup_id: setupId } },
            success_url: returnUrl,
            cancel_url: returnUrl,
          },
          { idempotencyKey: `setup-${setupId}` },
        );
        if (!session.url) throw new Error("no session url");
        return { redirectUrl: session.url, sessionId: session.id, customerId: customer };
      } catch {
        throw paymentUnavailable("Card payments are unavailable right now. Please try again.");
      }
    },
    readSetup: (sessionId) => cardOfSession(stripe, sessionId),
    async charge({ orderId, amountCents, customerId, methodId, description }) {
      try {
        const created = await stripe.paymentIntents.create(
          {
            amount: amountCents,
            currency: "usd",
            ...(customerId ? { customer: customerId } : {}),
            payment_method: methodId,
            off_session: true,
            confirm: true,
            description,
            metadata: { order_id: orderId, origin: "auto_topup" },
          },
          { idempotencyKey: `topup-${orderId}` },
        );
        // A replayed key answers the first response: read a payment still processing again.
        return resultOf(
          created.status === "processing" ? await stripe.paymentIntents.retrieve(created.id) : created,
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          return {
            status: "declined",
            paymentId: idOf(error.payment_intent) ?? null,
            message: error.message || "Your card was declined.",
          };
        }
        throw error;
      }
    },
    async forget(methodId) {
      await stripe.paymentMethods.detach(methodId).catch(() => undefined);
    },
  };
}
