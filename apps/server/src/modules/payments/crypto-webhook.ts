import { errorResponse, okResponse } from "@bytetoll/contracts";
import { z } from "zod";
import { AppError, notFound } from "../../errors.ts";
import type { App } from "../../types.ts";
import { ORDER_NOT_FOUND } from "../orders/service.ts";
import { verifyNowPaymentsSignature } from "./nowpayments-signature.ts";
import { replyUnavailable } from "./unavailable-errors.ts";

// A record (not an object schema) so every key survives validation: the signature covers them all.
const ipnBody = z.record(z.string(), z.unknown());

/** POST /webhooks/crypto: NOWPayments IPN. The callback only says "look again": after the
 * signature check the payment is re-read from the provider's API, and that answer is credited. */
export async function cryptoWebhookRoutes(app: App) {
  replyUnavailable(app);
  app.post(
    "/webhooks/crypto",
    {
      schema: {
        tags: ["payments"],
        summary: "NOWPayments IPN callback",
        body: ipnBody,
        response: { 200: okResponse, 400: errorResponse, 404: errorResponse, 502: errorResponse },
      },
    },
    async (request) => {
      const secret = app.config.NOWPAYMENTS_IPN_SECRET;
      if (app.payments.crypto.name !== "nowpayments" || !secret) throw notFound();
      if (!verifyNowPaymentsSignature(request.body, request.headers["x-nowpayments-sig"], secret)) {
        throw new AppError(400, "Invalid signature", "bad_signature");
      }
      const paymentId = request.body.payment_id;
      if (typeof paymentId !== "string" && typeof paymentId !== "number") {
        throw new AppError(400, "payment_id is required", "bad_request");
      }
      const order = await app.orders.findByProviderPayment("nowpayments", String(paymentId));
      if (!order) throw notFound(ORDER_NOT_FOUND);
      const reading = await app.payments.crypto.readPayment(String(paymentId));
      if (reading.orderId && reading.orderId !== order.id) {
        throw new AppError(400, "The payment belongs to another order", "order_mismatch");
      }
      await app.orders.settle(order.id, reading);
      return { success: true as const };
    },
  );
}
