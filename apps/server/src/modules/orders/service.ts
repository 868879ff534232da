import { randomUUID } from "node:crypto";
import { creditPurchase, type Database, reversePurchase } from "@bytetoll/db";
import type { Config } from "../../config.ts";
import { AppError, notFound, paymentUnavailable } from "../../errors.ts";
import type { ChangeCache } from "../../lib/change-cache.ts";
import type { Payments } from "../../plugins/payments.ts";
import type { DealsService, DealTerms } from "../deals/service.ts";
import type { PaymentReading, Share } from "../payments/provider.ts";
import { type OrderRow, toOrderView } from "./order-view.ts";
import { createOrdersRepository, type PaymentChoice, type Tx } from "./repository.ts";
import {
  type ChoosePaymentRequest,
  type CreateOrderRequest,
  type ListOrdersQuery,
  MAX_ORDER_USD,
  MIN_ORDER_USD,
  type Network,
  type Order,
  type OrderPage,
  PAYMENT_TOKENS,
} from "./schemas.ts";

export const ORDER_NOT_FOUND = "Order not found";
export const DEAL_UNAVAILABLE = "This deal is no longer available. Please check back again soon.";
export const CARD_UNAVAILABLE = "Card payments are not available.";
export const PAYMENT_ALREADY_CHOSEN = "This order already has a payment method.";
export const ORDER_CLOSED = "This order can no longer be paid.";

/** A second sign-in with the same purchase this soon reuses the first one's order. */
export const REUSE_UNPRICED_MINUTES = 10;

const orderClosed = () => new AppError(409, ORDER_CLOSED, "order_closed");

const isWaiting = (order: Order) => order.payment_status === "waiting";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Deps {
  database: Database;
  config: Config;
  payments: Payments;
  /** Called after every committed order change (realtime `topup-transaction.updated`). */
  publish: (order: Order) => void;
  /** GET /transactions pages, dropped by the change feed when an order of theirs changes (the
   * server's; the CLI reads uncached). */
  pages?: ChangeCache<OrderPage>;
  /** Deal orders: their terms, flash-sale stock, and group-buy deposits held at payment. */
  deals?: Pick<DealsService, "orderTerms" | "reserve" | "settleOrder" | "releaseStock">;
}

export interface SettleOptions {
  /** Runs first inside the crediting transaction; false means "already handled" (e.g. a Stripe
   * event id seen before) and nothing changes. */
  guard?: (tx: Tx) => Promise<boolean>;
}

/** `share` of `total` bytes, rounded down, never more than `total`. Exact integer arithmetic on
 * millionths: a float share would round 69% of some orders down by a byte, and a later identical
 * reading would then "owe" it again. */
function shareOf(total: number, share: Share): number {
  const part = BigInt(Math.round(Math.max(0, share.amount) * 1e6));
  const whole = BigInt(Math.round(Math.max(0, share.of) * 1e6));
  if (whole === 0n) return 0;
  return Math.min(total, Number((BigInt(total) * part) / whole));
}

/** An amount of USD or USDC as people write it: cents always, up to USDC's six decimals when
 * the provider reports them (49.999999 must not read as 50.00). */
function amountText(amount: number): string {
  return amount.toFixed(6).replace(/0{1,4}$/, "");
}

/** The order's note for a partial payment: what arrived of what was asked, in the order's unit. */
function receivedNote(row: Pick<OrderRow, "method">, paid: Share | undefined): string {
  const unit = row.method === "card" ? "USD" : "USDC";
  if (!paid) return `Part of the ${unit} payment arrived.`;
  return `Received ${amountText(paid.amount)} of ${amountText(paid.of)} ${unit}.`;
}

/** Orders and the one place that turns a payment into ledger credit. */
export function createOrdersService({ database, config, payments, publish, pages, deals }: Deps) {
  const repository = createOrdersRepository(database);

  const bytesFor = (amountCents: number) => Math.round((amountCents * 1e7) / config.PRICE_PER_GB_USD);

  function publishRows(rows: OrderRow[]): Order[] {
    const views = rows.map(toOrderView);
    for (const view of views) publish(view);
    return views;
  }

  async function listPage(userId: string, query: ListOrdersQuery): Promise<OrderPage> {
    let { rows, total } = await repository.listForUser(userId, {
      limit: query.per_page,
      offset: (query.page - 1) * query.per_page,
      method: query.source,
    });
    // Expire only when this page shows an overdue order: a list read stays a single query.
    const now = Date.now();
    if (rows.some((row) => row.paymentStatus === "waiting" && new Date(row.expiresAt).getTime() <= now)) {
      const expired = publishRows(await repository.expireDue(userId));
      if (expired.length > 0) {
        ({ rows, total } = await repository.listForUser(userId, {
          limit: query.per_page,
          offset: (query.page - 1) * query.per_page,
          method: query.source,
        }));
      }
    }
    const from = rows.length > 0 ? (query.page - 1) * query.per_page + 1 : null;
    return {
      success: true,
      data: rows.map(toOrderView),
      current_page: query.page,
      last_page: Math.max(1, Math.ceil(total / query.per_page)),
      per_page: query.per_page,
      total,
      from,
      to: from === null ? null : from + rows.length - 1,
    };
  }

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
      description: `${bytes / 1e9} GB of proxy data`,
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

  async function ownedOrder(userId: string, orderId: string): Promise<OrderRow> {
    if (!UUID.test(orderId)) throw notFound(ORDER_NOT_FOUND);
    const row = await repository.findForUser(userId, orderId);
    if (!row) throw notFound(ORDER_NOT_FOUND);
    return row;
  }

  /** How many of the order's credited bytes a refund or chargeback takes back in all. */
  function reversedBytes(row: OrderRow, reading: PaymentReading): number {
    const credited = Number(row.creditedBytes);
    return reading.status === "refunded" && reading.refunded ? shareOf(credited, reading.refunded) : credited;
  }

  /** Credits the whole order once it is paid in full (what an order credited in part before
   * decision 010 still lacks). */
  async function creditInTransaction(tx: Tx, row: OrderRow, reading: PaymentReading) {
    // A refunded order is closed: a late "paid" for it must not hand the data out again.
    if (row.paymentStatus === "refunded") return null;
    const credited = Number(row.creditedBytes);
    const target = Number(row.bytes);
    // Replays, retries and slower twins of a confirmation end here: nothing new was paid.
    if (target <= credited) return null;
    const ledger = await creditPurchase(tx, {
      userId: row.userId,
      orderId: row.id,
      creditedAfter: target,
      deltaBytes: target - credited,
    });
    if (!ledger.applied) throw new Error(`ledger already holds order:${row.id}:${target}`);
    const updated = await repository.recordCredit(tx, row.id, {
      fromCredited: credited,
      toCredited: target,
      balanceBytesAfter: ledger.balanceBytes,
      payinHash: reading.payinHash ?? null,
    });
    // Unreachable while the row lock is held; throwing rolls the ledger entry back if it happens.
    if (!updated) throw new Error(`order ${row.id} changed while locked`);
    return updated;
  }

  /** A payment that arrived in part credits nothing: the order says what arrived (its note) and
   * waits for the rest. A replay of the same reading changes nothing. */
  async function recordPartialInTransaction(tx: Tx, row: OrderRow, reading: PaymentReading) {
    const note = receivedNote(row, reading.paid);
    if (row.paymentStatus === "partially_paid" && row.note === note) return null;
    return (
      (await repository.recordPartialPayment(tx, row.id, { note, payinHash: reading.payinHash ?? null })) ??
      null
    );
  }

  /**
   * Takes back what a refund or chargeback covers, as a negative ledger entry of its own kind
   * (refund: reference order:{id}:{reversed_after}, so partial refunds add up and a replay is a
   * no-op; chargeback: order:{id}, once). The balance may go below zero. An order never credited
   * has nothing to take back: a waiting one is failed, a partially paid one is refunded (closed).
   */
  async function reverseInTransaction(tx: Tx, row: OrderRow, reading: PaymentReading) {
    const credited = Number(row.creditedBytes);
    if (credited === 0) return (await repository.closeUncredited(tx, row.id)) ?? null;
    const reversed = Number(row.reversedBytes);
    const target = reversedBytes(row, reading);
    if (target <= reversed) return null;
    const ledger = await reversePurchase(tx, {
      userId: row.userId,
      orderId: row.id,
      kind: reading.status === "charged_back" ? "chargeback" : "refund",
      reversedAfter: target,
      deltaBytes: target - reversed,
    });
    // A chargeback after a partial refund: the dispute's entry is already there.
    if (!ledger.applied) return null;
    const updated = await repository.recordReversal(tx, row.id, {
      fromReversed: reversed,
      toReversed: target,
      status: target >= credited ? "refunded" : row.paymentStatus,
      balanceBytesAfter: ledger.balanceBytes,
    });
    if (!updated) throw new Error(`order ${row.id} changed while locked`);
    return updated;
  }

  async function settleInTransaction(
    tx: Tx,
    orderId: string,
    reading: PaymentReading,
    options: SettleOptions,
  ): Promise<OrderRow | null> {
    if (options.guard && !(await options.guard(tx))) return null;
    const row = await repository.lock(tx, orderId);
    if (!row) throw notFound(ORDER_NOT_FOUND);
    // A group-buy deposit is held by its deal, not credited (undefined: settle as any order).
    const dealOutcome = deals ? await deals.settleOrder(tx, row, reading) : undefined;
    if (dealOutcome !== undefined) return dealOutcome;
    switch (reading.status) {
      case "failed":
      case "expired":
        return (await repository.closeWaiting(tx, orderId, reading.status)) ?? null;
      case "refunded":
      case "charged_back":
        return reverseInTransaction(tx, row, reading);
      case "partially_paid":
        return recordPartialInTransaction(tx, row, reading);
      default:
        return creditInTransaction(tx, row, reading);
    }
  }

  return {
    async create(userId: string, input: CreateOrderRequest): Promise<Order> {
      const terms = deals ? await deals.orderTerms(input) : null;
      if (input.deal_id !== undefined && !terms)
        throw new AppError(404, DEAL_UNAVAILABLE, "deal_unavailable");
      const id = randomUUID();
      const amountCents = terms?.amountCents ?? Math.round((input.amount ?? 0) * 100);
      const bytes = terms?.bytes ?? bytesFor(amountCents);
      const choice =
        input.method === "crypto" && input.network_type
          ? await cryptoPayment(id, amountCents, bytes, input.network_type)
          : cardPayment();
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
        const inserted = await repository.insert(values, tx);
        if (terms && deals) await deals.reserve(tx, id, terms);
        return inserted;
      });
      const [view] = publishRows([row]);
      return view ?? toOrderView(row);
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
      const amountCents = amountUsd * 100;
      const { row, created } = await repository.transaction(async (tx) => {
        await repository.lockUser(tx, userId);
        const existing = await repository.findRecentUnpriced(tx, userId, amountCents, REUSE_UNPRICED_MINUTES);
        if (existing) return { row: existing, created: false };
        const inserted = await repository.insert(
          {
            id: randomUUID(),
            userId,
            method: "crypto",
            networkType: null,
            amountCents,
            bytes: bytesFor(amountCents),
            provider: payments.crypto.name,
            paymentToken: null,
          },
          tx,
        );
        return { row: inserted, created: true };
      });
      if (created) return publishRows([row])[0] ?? toOrderView(row);
      return toOrderView(row);
    },

    /** A sign-in order for a deal (terms from the deals module): waiting with no payment method
     * yet, like createPending; a flash sale's stock is taken in the same transaction. */
    async createPendingForDeal(userId: string, terms: DealTerms): Promise<Order> {
      const id = randomUUID();
      const row = await repository.transaction(async (tx) => {
        const inserted = await repository.insert(
          {
            id,
            userId,
            method: "crypto",
            networkType: null,
            amountCents: terms.amountCents,
            bytes: terms.bytes,
            dealId: terms.encodedId,
            quantity: terms.quantity,
            provider: payments.crypto.name,
            paymentToken: null,
          },
          tx,
        );
        await deals?.reserve(tx, id, terms);
        return inserted;
      });
      return publishRows([row])[0] ?? toOrderView(row);
    },

    /**
     * POST /transactions/{id}/payment: how to pay an order made without a payment method. Crypto
     * asks the provider for the payment exactly as POST /transactions does; card leaves the
     * hosted page to POST /stripe/sessions.
     */
    async choosePayment(userId: string, orderId: string, input: ChoosePaymentRequest): Promise<Order> {
      const row = await ownedOrder(userId, orderId);
      const overdue = new Date(row.expiresAt).getTime() <= Date.now();
      if (row.paymentStatus !== "waiting" || overdue) throw orderClosed();
      if (row.method !== "crypto" || row.networkType !== null || row.providerPaymentId !== null) {
        throw new AppError(409, PAYMENT_ALREADY_CHOSEN, "payment_chosen");
      }
      const bytes = Number(row.bytes);
      const choice =
        input.method === "crypto" && input.network_type
          ? await cryptoPayment(row.id, Number(row.amountCents), bytes, input.network_type)
          : cardPayment();
      const updated = await repository.choosePayment(row.id, choice);
      // Lost a race with another choice, or the order closed meanwhile.
      if (!updated) throw new AppError(409, PAYMENT_ALREADY_CHOSEN, "payment_chosen");
      return publishRows([updated])[0] ?? toOrderView(updated);
    },

    async get(userId: string, orderId: string): Promise<Order> {
      const row = await ownedOrder(userId, orderId);
      if (row.paymentStatus === "waiting" && new Date(row.expiresAt).getTime() <= Date.now()) {
        const expired = await repository.closeWaiting(database.db, row.id, "expired");
        if (expired) return publishRows([expired])[0] ?? toOrderView(expired);
        const current = await repository.find(row.id);
        if (current) return toOrderView(current);
      }
      return toOrderView(row);
    },

    list(userId: string, query: ListOrdersQuery): Promise<OrderPage> {
      if (!pages) return listPage(userId, query);
      return pages.get(
        `orders:${userId}`,
        `${userId}:${query.page}:${query.per_page}:${query.source ?? ""}`,
        () => listPage(userId, query),
        // A page showing a waiting order is read again once that order is due to expire.
        {
          until: (page) =>
            Math.min(...page.data.filter(isWaiting).map((order) => Date.parse(order.expires_at))),
        },
      );
    },

    /** POST /stripe/sessions: the hosted card page for a waiting card order (reused if opened). */
    async startCardCheckout(userId: string, orderId: string): Promise<{ redirect_url: string }> {
      const row = await ownedOrder(userId, orderId);
      if (row.method !== "card") throw new AppError(400, "This order is not a card payment.", "not_card");
      if (row.paymentStatus !== "waiting") throw orderClosed();
      if (row.stripeRedirectUrl) return { redirect_url: row.stripeRedirectUrl };
      const provider = payments.card;
      if (!provider || provider.name !== row.provider) throw paymentUnavailable(CARD_UNAVAILABLE, 503);
      const payment = await provider.createPayment({
        orderId: row.id,
        amountCents: Number(row.amountCents),
        network: null,
        description: `${Number(row.bytes) / 1e9} GB of proxy data`,
      });
      if (!payment.redirectUrl) throw paymentUnavailable(CARD_UNAVAILABLE, 503);
      const updated = await repository.attachCheckout(row.id, {
        providerPaymentId: payment.providerPaymentId,
        redirectUrl: payment.redirectUrl,
      });
      if (!updated) throw orderClosed();
      publishRows([updated]);
      return { redirect_url: payment.redirectUrl };
    },

    /**
     * THE place money becomes data: applies a provider's reading to an order. A credit is one
     * transaction — row lock, ledger entry for the newly paid bytes (reference
     * order:{id}:{credited_after}), compare-and-set of credited_bytes — so replays, retries,
     * concurrent confirmations and late payments credit exactly once. Refunds and chargebacks
     * take it back the same way. Returns the changed order, or null when nothing changed.
     */
    async settle(
      orderId: string,
      reading: PaymentReading,
      options: SettleOptions = {},
    ): Promise<Order | null> {
      if (!UUID.test(orderId)) throw notFound(ORDER_NOT_FOUND);
      if (reading.status === "waiting") return null;
      const changed = await repository.transaction((tx) =>
        settleInTransaction(tx, orderId, reading, options),
      );
      return changed ? (publishRows([changed])[0] ?? null) : null;
    },

    /** Sandbox confirmation (POST /dev/orders/{id}/pay, sandbox card page, CLI). `amountUsd` below
     * the order's amount simulates a partial payment. */
    async paySandbox(orderId: string, amountUsd?: number): Promise<Order> {
      if (!UUID.test(orderId)) throw notFound(ORDER_NOT_FOUND);
      const row = await repository.find(orderId);
      if (!row) throw notFound(ORDER_NOT_FOUND);
      if (row.provider !== "sandbox") {
        throw new AppError(400, "Only sandbox orders can be paid here.", "not_sandbox");
      }
      const due = Number(row.amountCents);
      const paidCents = amountUsd === undefined ? due : Math.round(amountUsd * 100);
      const reading: PaymentReading =
        paidCents >= due
          ? { status: "paid", payinHash: "DUMMY_TX_ID" }
          : {
              status: "partially_paid",
              paid: { amount: paidCents / 100, of: due / 100 },
              payinHash: "DUMMY_TX_ID",
            };
      await this.settle(orderId, reading);
      const current = await repository.find(orderId);
      if (!current) throw notFound(ORDER_NOT_FOUND);
      return toOrderView(current);
    },

    async findByProviderPayment(provider: string, paymentId: string): Promise<OrderRow | undefined> {
      return repository.findByProviderPayment(provider, paymentId);
    },

    async find(orderId: string): Promise<OrderRow | undefined> {
      return UUID.test(orderId) ? repository.find(orderId) : undefined;
    },

    recordStripeEvent: (tx: Tx, id: string, type: string) => repository.recordStripeEvent(tx, id, type),

    attachPaymentIntent: (tx: Tx, orderId: string, paymentIntent: string) =>
      repository.attachPaymentIntent(tx, orderId, paymentIntent),

    findByStripePaymentIntent: (paymentIntent: string) => repository.findByStripePaymentIntent(paymentIntent),

    /** Records a signed callback that is not credited because it does not match its order. */
    rejectPayment: (orderId: string, provider: string, reference: string, reason: string) =>
      repository.recordRejection({ orderId, provider, reference, reason }),

    /** Expires every waiting order past its time (the interval timer; safe on many instances). */
    async expireDue(): Promise<number> {
      const expired = publishRows(await repository.expireDue()).length;
      if (expired > 0) await deals?.releaseStock();
      return expired;
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
