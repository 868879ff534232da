import type { Network } from "@bytetoll/contracts";
import { errorResponse, okResponse } from "@bytetoll/contracts";
import { z } from "zod";
import { AppError, notFound } from "../../errors.ts";
import type { PaymentReading } from "../../lib/payment-provider.ts";
import type { App } from "../../types.ts";
import { ORDER_NOT_FOUND, type OrderRow } from "../orders/index.ts";
import { payCurrencyFor } from "./nowpayments-provider.ts";
import { verifyNowPaymentsSignature } from "./nowpayments-signature.ts";
import type { ProviderEvent } from "./repository.ts";
import { parseShallowJson } from "./shallow-json.ts";

// A record (not an object schema) so every key survives validation: the signature covers them all.
const ipnBody = z.record(z.string(), z.unknown());

/** An IPN is a flat object with a few small nested ones (fees); anything bigger is not one. */
const IPN_BODY_LIMIT = 16 * 1024;
const IPN_MAX_DEPTH = 8;

const usd = (cents: number) => (cents / 100).toFixed(2);

/** Why a crediting reading does not match the order it claims to pay, or null when it does: the
 * provider's record must be for the order's USD price, paid in the order's USDC at its amount. */
function termsMismatch(order: OrderRow, reading: PaymentReading): string | null {
  if (reading.status !== "paid" && reading.status !== "partially_paid") return null;
  const terms = reading.terms;
  if (!terms) return "the provider's record has no price";
  const price = Number(order.amountCents);
  if (terms.priceCurrency !== "usd" || terms.priceCents !== price) {
    return `price ${usd(terms.priceCents)} ${terms.priceCurrency} is not the order's ${usd(price)} usd`;
  }
  const payCurrency = order.networkType ? payCurrencyFor(order.networkType as Network) : null;
  const payCents = order.priceAmountCents === null ? null : Number(order.priceAmountCents);
  if (terms.payCurrency !== payCurrency || terms.payCents !== payCents) {
    return `pay amount ${usd(terms.payCents)} ${terms.payCurrency} is not the order's ${usd(payCents ?? 0)} ${payCurrency}`;
  }
  return null;
}

/** The order page's record of an IPN: its status, and what the provider's API reported — the
 * amount asked (or, for a partial payment, what arrived of it) in the pay currency, and the price. */
function ipnEvent(status: unknown, paymentId: string | number, reading: PaymentReading): ProviderEvent {
  const { terms, paid } = reading;
  return {
    provider: "nowpayments",
    type: typeof status === "string" ? status : "unknown",
    reference: `payment:${paymentId}`,
    summary: {
      amount: paid ? paid.amount : terms ? terms.payCents / 100 : null,
      ...(paid ? { of: paid.of } : {}),
      currency: terms?.payCurrency ?? null,
      price: terms ? terms.priceCents / 100 : null,
      price_currency: terms?.priceCurrency ?? null,
    },
  };
}

/** POST /webhooks/crypto: NOWPayments IPN. The callback only says "look again": after the
 * signature check the payment is re-read from the provider's API, and that answer is credited
 * when it matches the order (otherwise it is recorded as a rejection and credits nothing). */
export async function cryptoWebhookRoutes(app: App) {
  // Size and depth are checked before anything walks the body (the signature sorts its keys).
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    try {
      done(null, parseShallowJson(String(body), IPN_MAX_DEPTH));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.post(
    "/webhooks/crypto",
    {
      bodyLimit: IPN_BODY_LIMIT,
      schema: {
        tags: ["payments"],
        summary: "NOWPayments IPN callback",
        body: ipnBody,
        response: { 200: okResponse, 400: errorResponse, 404: errorResponse, 502: errorResponse },
      },
    },
    async (request) => {
      const secret = app.config.NOWPAYMENTS_IPN_SECRET;
      const nowpayments = app.payments.nowpayments;
      if (!nowpayments || !secret) throw notFound();
      if (!verifyNowPaymentsSignature(request.body, request.headers["x-nowpayments-sig"], secret)) {
        throw new AppError(400, "Invalid signature", "bad_signature");
      }
      const paymentId = request.body.payment_id;
      if (typeof paymentId !== "string" && typeof paymentId !== "number") {
        throw new AppError(400, "payment_id is required", "bad_request");
      }
      const order = await app.orders.findByProviderPayment("nowpayments", String(paymentId));
      if (!order) throw notFound(ORDER_NOT_FOUND);
      const reading = await nowpayments.readPayment(String(paymentId));
      if (reading.orderId && reading.orderId !== order.id) {
        throw new AppError(400, "The payment belongs to another order", "order_mismatch");
      }
      const event = ipnEvent(request.body.payment_status, paymentId, reading);
      const mismatch = termsMismatch(order, reading);
      if (mismatch) {
        request.log.warn({ orderId: order.id, mismatch }, "crypto payment does not match its order");
        await app.settlement.rejectPayment(order.id, "nowpayments", `payment:${paymentId}`, mismatch, event);
        return { success: true as const };
      }
      await app.settlement.settle(order.id, reading, { event });
      return { success: true as const };
    },
  );
}
