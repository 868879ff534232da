import { errorResponse, okResponse } from "@bytetoll/contracts";
import type { FastifyBaseLogger } from "fastify";
import type Stripe from "stripe";
import { AppError, notFound } from "../../errors.ts";
import type { PaymentReading } from "../../lib/payment-provider.ts";
import type { App } from "../../types.ts";
import type { OrderRow, Tx } from "../orders/index.ts";
import type { PaymentRecords, ProviderEvent } from "./repository.ts";
import type { SettleOptions } from "./settlement.ts";

const INVALID_SIGNATURE = "Invalid signature";

/** What an event means for an order: about a Checkout Session (payment), or about the payment
 * intent behind one (refund, dispute). Null for events that change nothing. */
type Meaning =
  | { about: "session"; session: Stripe.Checkout.Session; reading: PaymentReading }
  | { about: "payment"; paymentIntent: string | null; reading: PaymentReading };

const idOf = (value: string | { id: string } | null): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

function meaningOf(event: Stripe.Event): Meaning | null {
  switch (event.type) {
    case "checkout.session.completed":
      // Delayed methods complete "unpaid" and settle later through async_payment_*.
      return event.data.object.payment_status === "paid"
        ? { about: "session", session: event.data.object, reading: { status: "paid" } }
        : null;
    case "checkout.session.async_payment_succeeded":
      return { about: "session", session: event.data.object, reading: { status: "paid" } };
    case "checkout.session.async_payment_failed":
      return { about: "session", session: event.data.object, reading: { status: "failed" } };
    case "checkout.session.expired":
      return { about: "session", session: event.data.object, reading: { status: "expired" } };
    case "charge.refunded": {
      // Sent for every refund, full or partial; amount_refunded is the running total.
      const charge = event.data.object;
      return {
        about: "payment",
        paymentIntent: idOf(charge.payment_intent),
        reading: { status: "refunded", refunded: { amount: charge.amount_refunded, of: charge.amount } },
      };
    }
    case "charge.dispute.created":
      return {
        about: "payment",
        paymentIntent: idOf(event.data.object.payment_intent),
        reading: { status: "charged_back" },
      };
    default:
      return null;
  }
}

/** Why a session event does not apply to its order, or null when it does: it must be the order's
 * own session and, to credit, be paid in USD for exactly the order's price. */
function sessionMismatch(
  order: OrderRow,
  session: Stripe.Checkout.Session,
  reading: PaymentReading,
): string | null {
  if (session.id !== order.providerSessionId) return `session ${session.id} is not the order's`;
  if (reading.status !== "paid") return null;
  const price = Number(order.amountCents);
  if (session.currency !== "usd" || session.amount_total !== price) {
    return `session total ${session.amount_total} ${session.currency} is not the order's ${price} usd`;
  }
  return null;
}

/** The Stripe order a session event is about: the one that opened this session, else the one its
 * metadata names (so a session that is not the order's can be recorded against it). */
async function orderOfSession(app: App, session: Stripe.Checkout.Session): Promise<OrderRow | undefined> {
  const own = await app.orders.findByProviderSession("stripe", session.id);
  if (own) return own;
  const named = session.metadata?.order_id ?? session.client_reference_id;
  const order = named ? await app.orders.find(named) : undefined;
  return order?.provider === "stripe" ? order : undefined;
}

async function applySession(
  app: App,
  log: FastifyBaseLogger,
  event: Stripe.Event,
  meaning: Extract<Meaning, { about: "session" }>,
): Promise<void> {
  const { session, reading } = meaning;
  const order = await orderOfSession(app, session);
  if (!order) {
    // Signed by Stripe but not one of our checkouts (another integration on the same account).
    log.warn({ eventId: event.id }, "stripe event for an unknown order ignored");
    return;
  }
  const mismatch = sessionMismatch(order, session, reading);
  if (mismatch) {
    log.warn({ eventId: event.id, orderId: order.id, mismatch }, "stripe session does not match its order");
    await app.settlement.rejectPayment(order.id, "stripe", event.id, mismatch, stripeEvent(event));
    return;
  }
  const paymentIntent = reading.status === "paid" ? idOf(session.payment_intent) : null;
  await app.settlement.settle(order.id, reading, onceForEvent(app.settlement.records, event, paymentIntent));
}

/** The order page's record of a Stripe event: its type and id, and the amount of the session,
 * refund (of the charge) or dispute it is about, in the currency's major unit (orders are USD). */
function stripeEvent(event: Stripe.Event): ProviderEvent {
  const object = event.data.object as unknown as Record<string, unknown>;
  const major = (key: string) => (typeof object[key] === "number" ? (object[key] as number) / 100 : null);
  const currency = typeof object.currency === "string" ? object.currency : null;
  const summary: ProviderEvent["summary"] =
    event.type === "charge.refunded"
      ? { amount: major("amount_refunded"), of: major("amount"), currency }
      : { amount: major("amount_total") ?? major("amount"), currency };
  return { provider: "stripe", type: event.type, reference: event.id, summary };
}

/** Settles only the first time the event id is seen, and remembers the order's payment intent
 * (its provider payment). */
function onceForEvent(
  records: PaymentRecords,
  event: Stripe.Event,
  paymentIntent: string | null,
): SettleOptions {
  return {
    event: stripeEvent(event),
    guard: (tx: Tx) => records.recordProviderEvent(tx, "stripe", event.id, event.type),
    providerPaymentId: paymentIntent ?? undefined,
  };
}

/** The order a payment intent paid: the one holding it, else (an order credited before payment
 * intents were stored) the one whose session Stripe says it belongs to. */
async function orderOfPayment(
  app: App,
  stripe: Stripe,
  paymentIntent: string,
): Promise<OrderRow | undefined> {
  const known = await app.orders.findByProviderPayment("stripe", paymentIntent);
  if (known) return known;
  const sessions = await stripe.checkout.sessions.list({ payment_intent: paymentIntent, limit: 1 });
  const session = sessions.data[0];
  return session ? app.orders.findByProviderSession("stripe", session.id) : undefined;
}

async function applyToPayment(
  app: App,
  stripe: Stripe,
  log: FastifyBaseLogger,
  event: Stripe.Event,
  meaning: Extract<Meaning, { about: "payment" }>,
): Promise<void> {
  const { paymentIntent, reading } = meaning;
  const order = paymentIntent ? await orderOfPayment(app, stripe, paymentIntent) : undefined;
  if (!order || !paymentIntent) {
    log.warn({ eventId: event.id }, "stripe event for a payment no order holds ignored");
    return;
  }
  if (order.paymentStatus === "waiting" && Number(order.creditedBytes) === 0) {
    // Its payment has not been credited yet (that event is still being retried): taking nothing
    // back now would let the credit through later, so Stripe is asked to send this one again.
    throw new AppError(409, "The payment is not credited yet; send the event again later.", "not_credited");
  }
  await app.settlement.settle(order.id, reading, onceForEvent(app.settlement.records, event, paymentIntent));
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
        summary: "Stripe webhook (Checkout, refund and dispute events)",
        response: { 200: okResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
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
      if (event.type === "checkout.session.completed" && event.data.object.mode === "setup") {
        // A card page of auto top-up (setup mode): the card is read back from Stripe and saved.
        await app.autoTopup.settings.setupCompleted(event.data.object.id);
        return { success: true as const };
      }
      const meaning = meaningOf(event);
      if (meaning?.about === "session") await applySession(app, request.log, event, meaning);
      if (meaning?.about === "payment") {
        await applyToPayment(app, stripe.client, request.log, event, meaning);
      }
      return { success: true as const };
    },
  );
}
