import {
  type CreateDealRequest,
  DEFAULT_DEPOSIT_USD,
  type Deal,
  decodeDealId,
  ENDED_DEALS_SHOWN_DAYS,
  encodeDealId,
} from "@bytetoll/contracts";
import { afterCommit, type Database } from "@bytetoll/db";
import { AppError } from "../../errors.ts";
import { toDealView } from "./deal-view.ts";
import { createDepositRefunds } from "./deposit-refunds.ts";
import { createDepositRepository } from "./deposit-repository.ts";
import { createFlashSaleStock } from "./flash-sale-stock.ts";
import { createGroupBuyDeposits } from "./group-buy-deposits.ts";
import { type DealOrderInput, type DealTerms, dealTerms, dealUnavailable } from "./order-terms.ts";
import { createPayouts } from "./payouts.ts";
import { createDealsRepository, type DealRow, type OrderRow, type Tx } from "./repository.ts";
import {
  CREDIT,
  type DealOrderWrites,
  type DealOutcome,
  type DealPaymentReading,
  held,
  SKIP,
} from "./settlement-hook.ts";
import type { DepositStatus } from "./status-tables.ts";

export type { DealTerms } from "./order-terms.ts";
export type { DealOrderWrites, DealOutcome, DealPaymentReading } from "./settlement-hook.ts";

interface Deps {
  database: Database;
  /** Called with every changed deal (realtime `deal.updated`). */
  publish: (deal: Deal) => void;
  /** PRICE_PER_GB_USD: what a flash-sale payment buys once the sale's stock is gone. */
  listPricePerGbUsd: number;
  /** Inside the activation's transaction, once per deposit: the deal.activated webhook. */
  joinedDealActivated?: (tx: Tx, userId: string, deal: { id: string; title: string }) => Promise<unknown>;
}

/**
 * Deals and THE place their money moves: flash-sale stock, group-buy deposits held at payment,
 * activation (crediting each deposit once through the ledger), refunds and withdrawals as payouts.
 * Everything that changes a deal's stock or money locks its row first, and every status move is
 * one conditional UPDATE, so any number of instances may run this at once.
 */
/** Runs inside an action's transaction with what it changed (and the state before, when there
 * was one), so a record of it — the operator's audit row — commits or rolls back with it. */
export type RecordChange<T> = (tx: Tx, after: T, before?: T) => Promise<void>;

export function createDealsService({ database, publish, listPricePerGbUsd, joinedDealActivated }: Deps) {
  const repository = createDealsRepository(database);
  const deposits = createDepositRepository(database);

  const publishRows = (rows: (DealRow | undefined | null)[]) => {
    for (const row of rows) if (row) publish(toDealView(row));
  };
  /** For changes made inside a transaction (its own or an order's): sent once that transaction
   * has committed, never before — a rollback sends nothing. */
  const publishSoon = (tx: Tx, row: DealRow | undefined | null) => {
    if (row) afterCommit(tx, () => publishRows([row]));
  };
  const refundDepositInTx = createDepositRefunds({ repository, deposits, publishSoon });
  const stock = createFlashSaleStock({ repository, listPricePerGbUsd, publishSoon });
  const payouts = createPayouts({ repository, deposits });
  const { activateInTx, refundHeldInTx, holdDepositInTx } = createGroupBuyDeposits({
    repository,
    deposits,
    publishSoon,
    joinedDealActivated,
  });

  async function lockedDeal(tx: Tx, encodedId: string): Promise<DealRow> {
    const id = decodeDealId(encodedId);
    const deal = id === null ? undefined : await repository.lock(tx, id);
    if (!deal) throw dealUnavailable();
    return deal;
  }

  /** The scheduler's end of a deal: a group buy that reached its target activates instead. */
  async function endDeal(id: number): Promise<DealRow | undefined> {
    return repository.transaction(async (tx) => {
      const deal = await repository.lock(tx, id);
      if (!deal) return undefined;
      const activated = deal.dealType === "group_buy" ? await activateInTx(tx, deal) : undefined;
      if (activated) return activated;
      const expired = await repository.expire(tx, id);
      if (expired?.dealType === "group_buy") await refundHeldInTx(tx, expired);
      return expired;
    });
  }

  async function activateDeal(id: number): Promise<DealRow | undefined> {
    return repository.transaction(async (tx) => {
      const deal = await repository.lock(tx, id);
      return deal ? activateInTx(tx, deal) : undefined;
    });
  }

  return {
    async listPublic(): Promise<Deal[]> {
      return (await repository.listPublic(ENDED_DEALS_SHOWN_DAYS)).map(toDealView);
    },

    async listAll(): Promise<Deal[]> {
      return (await repository.listAll(500)).map(toDealView);
    },

    async get(encodedId: string): Promise<Deal> {
      const id = decodeDealId(encodedId);
      const deal = id === null ? undefined : await repository.find(id);
      if (!deal) throw dealUnavailable();
      return toDealView(deal);
    },

    async create(input: CreateDealRequest, record?: RecordChange<Deal>): Promise<Deal> {
      const endTime = new Date(input.deal_end_time);
      if (endTime.getTime() <= Date.now()) {
        throw new AppError(400, "deal_end_time must be in the future", "bad_deal");
      }
      const row = await repository.transaction(async (tx) => {
        const inserted = await repository.insert(
          {
            dealType: input.deal_type,
            title: input.deal_title,
            description: input.deal_description,
            price: input.deal_price.toFixed(4),
            startTime: new Date(input.deal_start_time),
            endTime,
            targetGb: input.deal_target_gb,
          },
          tx,
        );
        await record?.(tx, toDealView(inserted));
        return inserted;
      });
      publishRows([row]);
      return toDealView(row);
    },

    /** Any pending or live deal → cancelled; a group buy's deposits are refunded as if unmet. */
    async cancel(encodedId: string, record?: RecordChange<Deal>): Promise<Deal> {
      const row = await repository.transaction(async (tx) => {
        const deal = await lockedDeal(tx, encodedId);
        const cancelled = await repository.cancel(tx, deal.id);
        if (!cancelled) {
          throw new AppError(
            409,
            `Only a pending or live deal can be cancelled; this one is ${deal.status}.`,
          );
        }
        if (cancelled.dealType === "group_buy") await refundHeldInTx(tx, cancelled);
        await record?.(tx, toDealView(cancelled), toDealView(deal));
        return cancelled;
      });
      publishRows([row]);
      return toDealView(row);
    },

    /** GET /deals/{id}/deposits: the caller's deposits still held by the deal or owed back
     * (`total_deposit`), and those that bought data when it activated (`credited_deposit`). */
    async deposits(
      userId: string,
      encodedId: string,
    ): Promise<{ total_deposit: number; credited_deposit: number }> {
      const id = decodeDealId(encodedId);
      const deal = id === null ? undefined : await repository.find(id);
      if (!deal) throw dealUnavailable();
      const cents = await deposits.depositCents(userId, deal.id);
      return { total_deposit: cents.open / 100, credited_deposit: cents.credited / 100 };
    },

    /** POST /deals/{id}/withdraw: the caller's held or refundable deposits become one payout. Once
     * a group buy is activated its deposits have bought data; what it still owes (a payout of a
     * withdrawal or refund that failed) stays withdrawable. */
    async withdraw(userId: string, encodedId: string, walletAddress: string): Promise<string> {
      const { amountCents, deal } = await repository.transaction(async (tx) => {
        const deal = await lockedDeal(tx, encodedId);
        const activated = deal.status === "activated";
        const from: DepositStatus[] = activated ? ["refundable"] : ["held", "refundable"];
        const [owner] = await deposits.depositsByOwner(tx, deal.id, from, userId);
        if ((!owner || owner.cents <= 0) && activated) {
          throw new AppError(
            409,
            "This group buy is activated: its deposits have bought data.",
            "deal_activated",
          );
        }
        if (!owner || owner.cents <= 0) {
          throw new AppError(409, "You have no deposit to withdraw from this deal.", "nothing_to_withdraw");
        }
        const live = deal.status === "live" || deal.status === "pending";
        const payout = await deposits.insertPayout(tx, {
          userId,
          dealId: deal.id,
          kind: live ? "withdrawal" : "refund",
          amountCents: owner.cents,
          walletAddress,
        });
        await deposits.moveDeposits(
          tx,
          { dealId: deal.id, userId, from },
          { status: "paid_out", payoutId: payout.id },
        );
        if (owner.heldCents > 0) await repository.addDeposited(tx, deal.id, -owner.heldCents);
        return { amountCents: owner.cents, deal: await repository.find(deal.id, tx) };
      });
      publishRows([deal]);
      return `Your deposit of $${(amountCents / 100).toFixed(2)} will be sent to ${walletAddress}.`;
    },

    /** The terms of an order naming a deal (null when it names none); the deal must be live. */
    async orderTerms(input: DealOrderInput & { deal_id?: string | undefined }): Promise<DealTerms | null> {
      if (input.deal_id === undefined) return null;
      const id = decodeDealId(input.deal_id);
      const deal = id === null ? undefined : await repository.find(id);
      return dealTerms(deal, deal ? encodeDealId(deal.id) : input.deal_id, input);
    },

    /** The order a sign-in link names (`di` and `usd`): a flash sale's quantity is the one whose
     * total is `usd` (one unit without it); a deposit is `usd` (the default deposit without it). */
    async signInTerms(dealId: number, usd: number | null): Promise<DealTerms> {
      const deal = await repository.find(dealId);
      if (!deal) throw dealUnavailable();
      const input: DealOrderInput =
        deal.dealType === "flash_sale"
          ? usd === null
            ? { quantity: 1 }
            : { amount: usd }
          : { amount: usd ?? DEFAULT_DEPOSIT_USD };
      return dealTerms(deal, encodeDealId(deal.id), input);
    },

    /** Inside the order's insert transaction: a flash sale's stock (within the account's cap of
     * unpaid orders in that sale). */
    async reserve(tx: Tx, order: { id: string; userId: string }, terms: DealTerms): Promise<void> {
      if (terms.dealType !== "flash_sale") return;
      await stock.reserve(tx, order, terms.dealId, terms.reserveGb);
    },

    /**
     * Inside the order's settlement transaction (its row locked). A group-buy deposit that is paid
     * is held, not credited, and may activate the deal at once; its order row is returned. For any
     * other order undefined: it is credited as usual (a flash-sale order paid after its stock was
     * given back takes it again, or once the stock is gone is priced at the list price first —
     * the caller reads the order again). A partial deposit payment holds nothing (null) until paid; a
     * refund or chargeback of a deposit takes what went back out of the deal.
     */
    async settleOrder(
      tx: Tx,
      row: OrderRow,
      reading: DealPaymentReading,
      orders: DealOrderWrites,
    ): Promise<DealOutcome> {
      const id = row.dealId ? decodeDealId(row.dealId) : null;
      const deal = id === null ? undefined : await repository.lock(tx, id);
      if (!deal) return CREDIT;
      const paying = reading.status === "paid" || reading.status === "partially_paid";
      if (deal.dealType === "flash_sale") {
        if (paying) {
          await stock.settlePayment(tx, { deal, row, orders }, reading.status as "paid" | "partially_paid");
        }
        return CREDIT;
      }
      if (reading.status === "partially_paid") return SKIP;
      if (reading.status === "refunded" || reading.status === "charged_back") {
        return held(
          await refundDepositInTx(
            tx,
            { deal, row, orders },
            { status: reading.status, refunded: reading.refunded },
          ),
        );
      }
      if (reading.status !== "paid") return CREDIT;
      return held(await holdDepositInTx(tx, { deal, row, orders }, reading));
    },

    /** One scheduler pass: starts, ends and activates what is due and gives back the stock of
     * flash-sale orders that ended unpaid. Safe on every instance at once. */
    async tick(): Promise<void> {
      publishRows(await repository.startDue());
      for (const id of await repository.dueToEnd()) publishRows([await endDeal(id)]);
      for (const id of await repository.dueForActivation()) publishRows([await activateDeal(id)]);
      publishRows(await stock.releaseEnded());
    },

    /** Gives back the stock of flash-sale orders that just ended unpaid. */
    async releaseStock(): Promise<void> {
      publishRows(await stock.releaseEnded());
    },

    ...payouts,
  };
}

export type DealsService = ReturnType<typeof createDealsService>;
