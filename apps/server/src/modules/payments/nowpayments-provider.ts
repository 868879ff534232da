import { type Network, usdToCents } from "@bytetoll/contracts";
import { z } from "zod";
import { paymentUnavailable } from "../../errors.ts";
import type {
  CreatedPayment,
  PaymentProvider,
  PaymentReading,
  PaymentRequest,
} from "../../lib/payment-provider.ts";
import { qrCodeFor } from "../../lib/qr-png.ts";

/** NOWPayments currency codes for USDC on each network we offer. */
const PAY_CURRENCY: Record<Network, string> = {
  solana: "usdcsol",
  polygon: "usdcmatic",
  base: "usdcbase",
  ethereum: "usdc",
};

/** The USDC currency code an order on `network` must be paid in. */
export const payCurrencyFor = (network: Network): string => PAY_CURRENCY[network];

/** USDC to cents, rounded up: sending a fraction of a cent less would leave the payment partially paid. */
const payAmountCents = (payAmount: number): number => Math.ceil(payAmount * 100 - 1e-9);

const paymentId = z.union([z.string(), z.number()]).transform(String);

const createdSchema = z.object({
  payment_id: paymentId,
  pay_address: z.string().min(1),
  pay_amount: z.coerce.number().positive(),
});

const statusSchema = z.object({
  payment_id: paymentId,
  payment_status: z.string(),
  pay_amount: z.coerce.number().nonnegative(),
  pay_currency: z.string(),
  price_amount: z.coerce.number().nonnegative(),
  price_currency: z.string(),
  actually_paid: z.coerce.number().nonnegative().nullish(),
  order_id: z.string().nullish(),
  payin_hash: z.string().nullish(),
});

/** finished/confirmed (and sending, which follows confirmed) mean the funds arrived; refunded takes
 * back whatever was credited (or fails a payment that never was). */
function mapNowPaymentsStatus(body: z.infer<typeof statusSchema>): PaymentReading {
  const base = {
    payinHash: body.payin_hash ?? null,
    orderId: body.order_id ?? null,
    terms: {
      priceCents: usdToCents(body.price_amount),
      priceCurrency: body.price_currency.toLowerCase(),
      payCents: payAmountCents(body.pay_amount),
      payCurrency: body.pay_currency.toLowerCase(),
    },
  };
  switch (body.payment_status) {
    case "finished":
    case "confirmed":
    case "sending":
      return { ...base, status: "paid" };
    case "partially_paid":
      return {
        ...base,
        status: "partially_paid",
        paid: { amount: body.actually_paid ?? 0, of: body.pay_amount },
      };
    case "failed":
      return { ...base, status: "failed" };
    case "refunded":
      return { ...base, status: "refunded" };
    case "expired":
      return { ...base, status: "expired" };
    default:
      return { ...base, status: "waiting" };
  }
}

/** NOWPAYMENTS_API_URL may be given with or without the /v1 suffix. */
function nowPaymentsBase(apiUrl: string): string {
  const trimmed = apiUrl.replace(/\/+$/, "");
  return trimmed.endsWith("/v1") ? trimmed : `${trimmed}/v1`;
}

/** NOWPayments opens USDC payments and, alone of the providers, is read back: its IPN callback
 * only prompts the server to read the payment from the API. */
export interface NowPaymentsProvider extends PaymentProvider {
  readPayment(providerPaymentId: string): Promise<PaymentReading>;
}

export function createNowPaymentsProvider(options: {
  apiUrl: string;
  apiKey: string;
  callbackUrl: string;
}): NowPaymentsProvider {
  const base = nowPaymentsBase(options.apiUrl);

  async function call(path: string, init: RequestInit = {}): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        ...init,
        headers: { "x-api-key": options.apiKey, "content-type": "application/json" },
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw paymentUnavailable("The crypto payment provider is unavailable. Please try again.");
    }
    if (response.status >= 500) {
      throw paymentUnavailable("The crypto payment provider is unavailable. Please try again.");
    }
    if (!response.ok) {
      throw paymentUnavailable("The crypto payment provider refused the payment. Please try again.");
    }
    return response.json().catch(() => null);
  }

  return {
    name: "nowpayments",
    async createPayment(request: PaymentRequest): Promise<CreatedPayment> {
      if (!request.network) throw new Error("NOWPayments takes crypto payments only");
      const body = await call("/payment", {
        method: "POST",
        body: JSON.stringify({
          price_amount: request.amountCents / 100,
          price_currency: "usd",
          pay_currency: PAY_CURRENCY[request.network],
          order_id: request.orderId,
          order_description: request.description,
          ipn_callback_url: options.callbackUrl,
        }),
      });
      const created = createdSchema.safeParse(body);
      if (!created.success) {
        throw paymentUnavailable("The crypto payment provider answered unexpectedly. Please try again.");
      }
      return {
        providerPaymentId: created.data.payment_id,
        payAddress: created.data.pay_address,
        qrCode: qrCodeFor(created.data.pay_address),
        priceAmountCents: payAmountCents(created.data.pay_amount),
        providerSessionId: null,
        redirectUrl: null,
      };
    },
    /** The provider's own record of a payment: its IPN is only a prompt to read this. */
    async readPayment(providerPaymentId: string): Promise<PaymentReading> {
      const body = await call(`/payment/${encodeURIComponent(providerPaymentId)}`);
      const status = statusSchema.safeParse(body);
      if (!status.success || status.data.payment_id !== providerPaymentId) {
        throw paymentUnavailable("The crypto payment provider answered unexpectedly.");
      }
      return mapNowPaymentsStatus(status.data);
    },
  };
}
