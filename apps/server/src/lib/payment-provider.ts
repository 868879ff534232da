import type { Network } from "@bytetoll/contracts";

/** What a provider needs to open a payment for an order. */
export interface PaymentRequest {
  orderId: string;
  amountCents: number;
  /** Null for card payments. */
  network: Network | null;
  description: string;
}

export interface CreatedPayment {
  /** The provider's payment, when opening it made one (a USDC payment); a hosted checkout's
   * payment is known only once paid (orders.provider_payment_id). */
  providerPaymentId: string | null;
  /** The hosted checkout session the customer pays on (card payments). */
  providerSessionId: string | null;
  payAddress: string | null;
  /** data:image/png;base64 of the pay address. */
  qrCode: string | null;
  /** What the customer must send, in USDC cents. */
  priceAmountCents: number | null;
  /** Hosted page to send the customer to (card payments). */
  redirectUrl: string | null;
}

/** A share of a whole, in the provider's unit (USDC, cents…). */
export interface Share {
  amount: number;
  of: number;
}

/** What a provider's own record says a payment is for, to be held against the order. */
export interface PaymentTerms {
  priceCents: number;
  priceCurrency: string;
  payCents: number;
  payCurrency: string;
}

/** A provider's current word on a payment, mapped onto decision 003's statuses. `refunded` and
 * `charged_back` take back what the order was credited. */
export interface PaymentReading {
  status: "waiting" | "paid" | "partially_paid" | "failed" | "expired" | "refunded" | "charged_back";
  /** For partial payments: `amount` paid of `of` expected (same unit). */
  paid?: Share;
  /** For refunds: `amount` refunded of `of` charged; absent means all of it. */
  refunded?: Share;
  payinHash?: string | null;
  /** The order the provider has on record for this payment. */
  orderId?: string | null;
  terms?: PaymentTerms;
}

/** One interface for every way of paying (sandbox, NOWPayments, Stripe Checkout): opening a
 * payment. What a payment became arrives by the provider's signed callback, as a PaymentReading
 * (docs/payment-providers.md). */
export interface PaymentProvider {
  readonly name: "sandbox" | "nowpayments" | "stripe";
  createPayment(request: PaymentRequest): Promise<CreatedPayment>;
}

/** What checkout opens payments through: the payments module builds them (providers.ts),
 * checkout only calls them, so orders needs nothing else of payments. */
export interface CheckoutProviders {
  /** USDC payments: the sandbox or NOWPayments (CRYPTO_PROVIDER). */
  crypto: PaymentProvider;
  /** Card payments: Stripe Checkout when configured, the sandbox card page outside production,
   * otherwise none (card payments are refused with 503). */
  card: PaymentProvider | null;
}
