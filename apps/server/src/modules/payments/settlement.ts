import { shareOf, usdToCents } from "@bytetoll/contracts";
import { creditPurchase, type Database, reversePurchase } from "@bytetoll/db";
import { AppError } from "../../errors.ts";
import type { PaymentReading, Share } from "../../lib/payment-provider.ts";
import type { DealOutcome, DealsService } from "../deals/index.ts";
import {
  createOrdersRepository,
  type IssuerDetails,
  isOrderId,
  type Order,
  type OrderRow,
  orderNotFound,
  type Tx,
  toOrderView,
} from "../orders/index.ts";
import { createPaymentRecords, type ProviderEvent } from "./repository.ts";

interface Deps {
  database: Database;
  publishOrder: (row: OrderRow) => Order;
  /** Group-buy deposits are held by their deal at payment, not credited. */
  deals?: Pick<DealsService, "settleOrder">;
  /** Who issues the invoices and credit notes the status writes issue. */
  issuer?: IssuerDetails;
}

export interface SettleOptions {
  /** Runs first inside the crediting transaction; false means "already handled" (e.g. a Stripe
   * event id seen before) and nothing changes. */
  guard?: (tx: Tx) => Promise<boolean>;
  /** Runs last inside the same transaction when the order changed (e.g. the operator's audit
   * row), so the record commits or rolls back with the change. */
  changed?: (tx: Tx, order: OrderRow) => Promise<void>;
  /** The signed provider callback behind the reading: recorded with its outcome in the same
   * transaction, also when it changes nothing (docs/product.md, "Operator console"). */
  event?: ProviderEvent;
  /** The provider's payment behind a hosted checkout (a Stripe payment intent), remembered on
   * the order once the guard has passed: refunds and disputes name it. */
  providerPaymentId?: string | undefined;
}

/** A case the types say cannot happen (each switch ends `satisfies never`, so a new status or
 * outcome without its case fails the type check): at runtime it stops the transaction. */
function noCase(value: unknown): never {
  throw new Error(`settlement has no case for ${JSON.stringify(value)}`);
}

/** What a reading that changed the order did to it, in the words of the order page. */
function outcomeOf(reading: PaymentReading, row: OrderRow): string {
  // A group-buy deposit (a deal order without a quantity) is held; a flash-sale order is credited.
  const deposit = row.dealId !== null && row.quantity === null;
  if (deposit && (reading.status === "paid" || reading.status === "partially_paid")) {
    return "held_by_deal";
  }
  switch (reading.status) {
    case "paid":
      return "credited";
    case "refunded":
    case "charged_back":
      return row.paymentStatus === "refunded" ? "refunded" : reading.status;
    case "waiting":
    case "partially_paid":
    case "failed":
    case "expired":
      return reading.status;
    default:
      return noCase(reading.status satisfies never);
  }
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

/** How many of the order's credited bytes a refund or chargeback takes back in all. */
function reversedBytes(row: OrderRow, reading: PaymentReading): number {
  const credited = Number(row.creditedBytes);
  const share = reading.status === "refunded" ? reading.refunded : undefined;
  return share ? shareOf(credited, share.amount, share.of) : credited;
}

/** The sandbox's stand-in for a provider's word: paid in full, or `paidCents` of it. */
function sandboxReading(dueCents: number, paidCents: number): PaymentReading {
  if (paidCents >= dueCents) return { status: "paid", payinHash: "DUMMY_TX_ID" };
  return {
    status: "partially_paid",
    paid: { amount: paidCents / 100, of: dueCents / 100 },
    payinHash: "DUMMY_TX_ID",
  };
}

/** THE place money becomes data: the providers' readings reach the ledger only through here. */
export function createSettlement({ database, publishOrder, deals, issuer }: Deps) {
  const repository = createOrdersRepository(database, issuer ?? null);
  const records = createPaymentRecords(database);

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
    if (!ledger.applied) throw new Error(`ledger already holds ${ledger.reference}`);
    const updated = await repository.recordCredit(tx, row, {
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
   * (partial refunds add up and a replay is a no-op; a chargeback happens once). The balance may
   * go below zero. An order never credited has nothing to take back: a waiting one is failed, a
   * partially paid one is refunded (closed).
   */
  async function reverseInTransaction(tx: Tx, row: OrderRow, reading: PaymentReading) {
    const credited = Number(row.creditedBytes);
    if (credited === 0) return (await repository.closeUncredited(tx, row)) ?? null;
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
    const updated = await repository.recordReversal(tx, row, {
      toReversed: target,
      balanceBytesAfter: ledger.balanceBytes,
    });
    if (!updated) throw new Error(`order ${row.id} changed while locked`);
    return updated;
  }

  async function settleInTransaction(
    tx: Tx,
    orderId: string,
    reading: PaymentReading,
  ): Promise<OrderRow | null> {
    // The order row first, then (in settleOrder) its deal: the one lock order of deals' stock.
    const locked = await repository.lock(tx, orderId);
    if (!locked) throw orderNotFound();
    // A group-buy deposit is held by its deal, not credited.
    const dealOutcome: DealOutcome = deals
      ? await deals.settleOrder(tx, locked, reading, repository)
      : { kind: "credit" };
    switch (dealOutcome.kind) {
      case "hold":
        return dealOutcome.order;
      case "skip":
        return null;
      case "credit":
        break;
      default:
        return noCase(dealOutcome satisfies never);
    }
    // A flash sale whose stock went to others meanwhile priced the order at the list price.
    const row = locked.dealId ? ((await repository.lock(tx, orderId)) ?? locked) : locked;
    switch (reading.status) {
      case "failed":
      case "expired":
        return (await repository.closeOpen(tx, orderId, reading.status)) ?? null;
      case "refunded":
      case "charged_back":
        return reverseInTransaction(tx, row, reading);
      case "partially_paid":
        return recordPartialInTransaction(tx, row, reading);
      case "paid":
        return creditInTransaction(tx, row, reading);
      case "waiting":
        return null;
      default:
        return noCase(reading.status satisfies never);
    }
  }

  return {
    /**
     * Applies a provider's reading to an order. A credit is one transaction — row lock, ledger
     * entry for the newly paid bytes, compare-and-set of credited_bytes — so replays, retries,
     * concurrent confirmations and late payments credit exactly once. Refunds and chargebacks
     * take it back the same way. Returns the changed order, or null when nothing changed.
     */
    async settle(
      orderId: string,
      reading: PaymentReading,
      options: SettleOptions = {},
    ): Promise<Order | null> {
      if (!isOrderId(orderId)) throw orderNotFound();
      if (reading.status === "waiting") return null;
      const changed = await repository.transaction(async (tx) => {
        const { event } = options;
        if (options.guard && !(await options.guard(tx))) {
          if (event) await records.recordEvent(tx, orderId, event, "ignored_duplicate");
          return null;
        }
        if (options.providerPaymentId) {
          await repository.attachProviderPayment(tx, orderId, options.providerPaymentId);
        }
        const row = await settleInTransaction(tx, orderId, reading);
        if (event) await records.recordEvent(tx, orderId, event, row ? outcomeOf(reading, row) : "unchanged");
        if (row && options.changed) await options.changed(tx, row);
        return row;
      });
      return changed ? publishOrder(changed) : null;
    },

    /** Sandbox confirmation (POST /dev/orders/{id}/pay, sandbox card page, CLI). `amountUsd` below
     * the order's amount simulates a partial payment. */
    async paySandbox(
      orderId: string,
      amountUsd?: number,
      changed?: SettleOptions["changed"],
    ): Promise<Order> {
      if (!isOrderId(orderId)) throw orderNotFound();
      const row = await repository.find(orderId);
      if (!row) throw orderNotFound();
      if (row.provider !== "sandbox") {
        throw new AppError(400, "Only sandbox orders can be paid here.", "not_sandbox");
      }
      const due = Number(row.amountCents);
      const paidCents = amountUsd === undefined ? due : usdToCents(amountUsd);
      await this.settle(orderId, sandboxReading(due, paidCents), {
        changed,
        event: {
          provider: "sandbox",
          type: paidCents >= due ? "sandbox.paid" : "sandbox.partially_paid",
          reference: `sandbox:${orderId}`,
          summary:
            paidCents >= due
              ? { amount: paidCents / 100, currency: "usd" }
              : { amount: paidCents / 100, of: due / 100, currency: "usd" },
        },
      });
      const current = await repository.find(orderId);
      if (!current) throw orderNotFound();
      return toOrderView(current);
    },

    /** What the callbacks record beside the order (Stripe events, payment intents, refusals). */
    records,

    /** Records a signed callback that is not credited because it does not match its order, and
     * its event row. */
    rejectPayment: (
      orderId: string,
      provider: string,
      reference: string,
      reason: string,
      event?: ProviderEvent,
    ) => records.recordRejection({ orderId, provider, reference, reason }, event),
  };
}

export type Settlement = ReturnType<typeof createSettlement>;
