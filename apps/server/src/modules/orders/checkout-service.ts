import { randomUUID } from "node:crypto";
import {
  belowMinimumOrderMessage,
  DEAL_UNAVAILABLE,
  FLASH_SALE_HOLD_MINUTES,
  minimumOrderUsd,
  usdToCents,
} from "@bytetoll/contracts";
import { afterCommit } from "@bytetoll/db";
import type { Config } from "../../config.ts";
import { AppError, paymentUnavailable } from "../../errors.ts";
import type { CheckoutProviders } from "../../lib/payment-provider.ts";
import type { DealsService, DealTerms } from "../deals/index.ts";
import { CARD_UNAVAILABLE, orderClosed, paymentAlreadyChosen } from "./order-errors.ts";
import type { OrderReads } from "./order-reads.ts";
import { isOverdue, type OrderRow, toOrderView } from "./order-view.ts";
import { bytesFor, paymentDescription } from "./pricing.ts";
import {
  type NewOrder,
  ORDER_VALID_MINUTES,
  type OrdersRepository,
  type PaymentChoice,
  type Tx,
} from "./repository.ts";
import {
  type ChoosePaymentRequest,
  type CreateOrderRequest,
  MAX_ORDER_USD,
  MIN_ORDER_USD,
  type Network,
  type Order,
  PAYMENT_TOKENS,
} from "./schemas.ts";

/** How long an order may wait for its payment: a flash sale's holds stock others could buy, so
 * it is held for less time. */
const validMinutes = (terms: DealTerms | null) =>
  terms?.dealType === "flash_sale" ? FLASH_SALE_HOLD_MINUTES : ORDER_VALID_MINUTES;

/** A second sign-in with the same purchase this soon reuses the first one's order. */
export const REUSE_UNPRICED_MINUTES = 10;

interface Deps {
  config: Pick<Config, "PRICE_PER_GB_USD">;
  payments: CheckoutProviders;
  repository: OrdersRepository;
  reads: Pick<OrderReads, "owned">;
  publishOrder: (row: OrderRow) => Order;
  /** Deal orders: their terms and flash-sale stock. */
  deals?: Pick<DealsService, "orderTerms" | "reserve">;
}

/** Making orders and choosing how to pay them; the providers open the payments. */
export function createCheckout({ config, payments, repository, reads, publishOrder, deals }: Deps) {
  /** The provider payment of a USDC order (pay address, QR, amount to send). */
  async function cryptoPayment(
    orderId: string,
    amountCents: number,
    bytes: number,
    network: Network,
  ): Promise<PaymentChoice> {
    const provider = payments.crypto;
    const payment = await provider.createPayment({
      orderId,
      amountCents,
      network,
      description: paymentDescription(bytes),
    });
    return {
      method: "crypto",
      networkType: network,
      provider: provider.name,
      providerPaymentId: payment.providerPaymentId,
      payAddress: payment.payAddress ?? null,
      qrCode: payment.qrCode ?? null,
      priceAmountCents: payment.priceAmountCents ?? null,
      paymentToken: PAYMENT_TOKENS[network],
    };
  }

  /** A card order: the checkout itself is opened by POST /stripe/sessions, when the customer
   * chooses to pay. */
  function cardPayment(): PaymentChoice {
    const provider = payments.card;
    if (!provider) throw paymentUnavailable(CARD_UNAVAILABLE, 503);
    return {
      method: "card",
      networkType: null,
      provider: provider.name,
      providerPaymentId: null,
      payAddress: null,
      qrCode: null,
      priceAmountCents: null,
      paymentToken: PAYMENT_TOKENS.card,
    };
  }

  function paymentFor(
    orderId: string,
    amountCents: number,
    bytes: number,
    input: Pick<ChoosePaymentRequest, "method" | "network_type">,
  ) {
    return input.method === "crypto" && input.network_type
      ? cryptoPayment(orderId, amountCents, bytes, input.network_type)
      : cardPayment();
  }

  /** An order made at sign-in: awaiting its method (no method, network or payment) until one is
   * chosen. */
  const unpriced = (userId: string, amountCents: number, bytes: number): NewOrder & { id: string } => ({
    id: randomUUID(),
    userId,
    paymentStatus: "awaiting_method",
    method: null,
    networkType: null,
    amountCents,
    bytes,
    provider: payments.crypto.name,
    paymentToken: null,
  });

  /** Data at the list price is sold from MIN_PURCHASE_GB up: a smaller order is refused, in the
   * words the checkout page uses. A deal's order has its own price and MIN_ORDER_USD. */
  function refuseBelowMinimum(amountCents: number): void {
    const minimumUsd = minimumOrderUsd(config.PRICE_PER_GB_USD, false);
    if (amountCents < usdToCents(minimumUsd))
      throw new AppError(400, belowMinimumOrderMessage(minimumUsd, false), "below_minimum");
  }

  return {
    async create(userId: string, input: CreateOrderRequest): Promise<Order> {
      const terms = deals ? await deals.orderTerms(input) : null;
      if (input.deal_id !== undefined && !terms)
        throw new AppError(404, DEAL_UNAVAILABLE, "deal_unavailable");
      const id = randomUUID();
      if (!terms) refuseBelowMinimum(usdToCents(input.amount ?? 0));
      const amountCents = terms?.amountCents ?? usdToCents(input.amount ?? 0);
      const bytes = terms?.bytes ?? bytesFor(amountCents, config.PRICE_PER_GB_USD);
      const choice = await paymentFor(id, amountCents, bytes, input);
      const values = {
        id,
        userId,
        amountCents,
        bytes,
        dealId: terms?.encodedId,
        quantity: terms?.quantity,
        ...choice,
      };
      const row = await repository.transaction(async (tx) => {
        const inserted = await repository.insert(values, tx, validMinutes(terms));
        if (terms && deals) await deals.reserve(tx, { id, userId }, terms);
        return inserted;
      });
      return publishOrder(row);
    },

    /**
     * An automatic top-up, made inside the auto-topup module's claim transaction (so the claim and
     * the order commit together): a waiting card order at the list price for the saved card's
     * provider, charged off-session by that module. Published once the transaction commits.
     */
    async createAutoTopup(
      tx: Tx,
      input: { userId: string; amountCents: number; provider: "sandbox" | "stripe" },
    ): Promise<OrderRow> {
      refuseBelowMinimum(input.amountCents);
      const row = await repository.insert(
        {
          id: randomUUID(),
          userId: input.userId,
          method: "card",
          networkType: null,
          amountCents: input.amountCents,
          bytes: bytesFor(input.amountCents, config.PRICE_PER_GB_USD),
          provider: input.provider,
          providerPaymentId: null,
          paymentToken: PAYMENT_TOKENS.card,
          origin: "auto_topup",
        },
        tx,
      );
      afterCommit(tx, () => publishOrder(row));
      return row;
    },

    /**
     * POST /magic/check with purchaseAmount: a waiting order of that many USD with no payment
     * method yet (chosen later on /checkout). A double submit within REUSE_UNPRICED_MINUTES gets
     * the same order: the account row lock makes the second request wait for the first.
     */
    async createPending(userId: string, amountUsd: number): Promise<Order> {
      if (!Number.isInteger(amountUsd) || amountUsd < MIN_ORDER_USD || amountUsd > MAX_ORDER_USD) {
        throw new AppError(
          400,
          `purchaseAmount must be a whole number of USD from ${MIN_ORDER_USD} to ${MAX_ORDER_USD}`,
        );
      }
      const amountCents = usdToCents(amountUsd);
      refuseBelowMinimum(amountCents);
      const { row, created } = await repository.transaction(async (tx) => {
        await repository.lockUser(tx, userId);
        const existing = await repository.findRecentUnpriced(tx, userId, amountCents, REUSE_UNPRICED_MINUTES);
        if (existing) return { row: existing, created: false };
        const values = unpriced(userId, amountCents, bytesFor(amountCents, config.PRICE_PER_GB_USD));
        return { row: await repository.insert(values, tx), created: true };
      });
      return created ? publishOrder(row) : toOrderView(row);
    },

    /** A sign-in order for a deal (terms from the deals module): waiting with no payment method
     * yet, like createPending; a flash sale's stock is taken in the same transaction. */
    async createPendingForDeal(userId: string, terms: DealTerms): Promise<Order> {
      const values = {
        ...unpriced(userId, terms.amountCents, terms.bytes),
        dealId: terms.encodedId,
        quantity: terms.quantity,
      };
      const row = await repository.transaction(async (tx) => {
        const inserted = await repository.insert(values, tx, validMinutes(terms));
        await deals?.reserve(tx, { id: values.id, userId }, terms);
        return inserted;
      });
      return publishOrder(row);
    },

    /**
     * POST /transactions/{id}/payment: how to pay an order made without a payment method. Crypto
     * asks the provider for the payment exactly as POST /transactions does; card leaves the
     * hosted page to POST /stripe/sessions.
     */
    async choosePayment(userId: string, orderId: string, input: ChoosePaymentRequest): Promise<Order> {
      const row = await reads.owned(userId, orderId);
      if (isOverdue(row)) throw orderClosed();
      if (row.paymentStatus === "waiting") throw paymentAlreadyChosen();
      if (row.paymentStatus !== "awaiting_method") throw orderClosed();
      const choice = await paymentFor(row.id, Number(row.amountCents), Number(row.bytes), input);
      const updated = await repository.choosePayment(row.id, choice);
      // Lost a race with another choice, or the order closed meanwhile.
      if (!updated) throw paymentAlreadyChosen();
      return publishOrder(updated);
    },

    /** POST /stripe/sessions: the hosted card page for a waiting card order (reused if opened). */
    async startCardCheckout(userId: string, orderId: string): Promise<{ redirect_url: string }> {
      const row = await reads.owned(userId, orderId);
      if (row.method !== "card") throw new AppError(400, "This order is not a card payment.", "not_card");
      if (row.paymentStatus !== "waiting") throw orderClosed();
      if (row.providerRedirectUrl) return { redirect_url: row.providerRedirectUrl };
      const provider = payments.card;
      if (!provider || provider.name !== row.provider) throw paymentUnavailable(CARD_UNAVAILABLE, 503);
      const payment = await provider.createPayment({
        orderId: row.id,
        amountCents: Number(row.amountCents),
        network: null,
        description: paymentDescription(Number(row.bytes)),
      });
      if (!payment.redirectUrl) throw paymentUnavailable(CARD_UNAVAILABLE, 503);
      const updated = await repository.attachCheckout(row.id, {
        sessionId: payment.providerSessionId,
        redirectUrl: payment.redirectUrl,
      });
      if (!updated) throw orderClosed();
      publishOrder(updated);
      return { redirect_url: payment.redirectUrl };
    },
  };
}

export type Checkout = ReturnType<typeof createCheckout>;
