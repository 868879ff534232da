import {
  bytesForCents,
  bytesToGb,
  MAX_UNPAID_FLASH_SALE_ORDERS,
  SOLD_OUT_LIST_PRICE_NOTE,
  usdToMicros,
} from "@bytetoll/contracts";
import { AppError } from "../../errors.ts";
import { dealUnavailable, soldOut } from "./order-terms.ts";
import type { DealRow, DealsRepository, OrderRow, Tx } from "./repository.ts";
import type { DealOrderWrites } from "./settlement-hook.ts";

/** Ended orders whose stock one sweep gives back at most (the next pass takes the rest). */
const SWEEP_BATCH = 500;

interface Deps {
  repository: DealsRepository;
  /** The list price an order pays when its flash sale's stock is gone (PRICE_PER_GB_USD). */
  listPricePerGbUsd: number;
  /** Sends a deal changed inside someone else's transaction once that has returned. */
  publishSoon: (tx: Tx, row: DealRow | undefined) => void;
}

const tooManyUnpaid = () =>
  new AppError(
    409,
    `You already have ${MAX_UNPAID_FLASH_SALE_ORDERS} unpaid orders in this flash sale. Pay or cancel one before ordering more.`,
    "too_many_unpaid",
  );

/**
 * A flash sale's stock: taken when an order is made, given back when it ends unpaid, taken again
 * or replaced by the list price when a payment arrives after that. Every change here follows THE
 * LOCK ORDER written in repository.ts: the order row first, then the deal row.
 */
export function createFlashSaleStock({ repository, listPricePerGbUsd, publishSoon }: Deps) {
  /** One ended order's stock back on sale, in its own transaction: order, then deal, then the
   * re-check (a payment credited since the candidate was read keeps its stock). */
  async function releaseOne(orderId: string, dealId: number): Promise<boolean> {
    return repository.transaction(async (tx) => {
      if (!(await repository.lockOrder(tx, orderId))) return false;
      await repository.lock(tx, dealId);
      return repository.releaseReservation(tx, orderId);
    });
  }

  /** The order's GB at the list price for the money it paid, by an ordinary order's rule. */
  const listPriceBytes = (row: OrderRow) =>
    bytesForCents(Number(row.amountCents), usdToMicros(listPricePerGbUsd));

  return {
    /** Inside the order's insert transaction: the deal's lock, then the account's cap of unpaid
     * orders (counted under that lock, so concurrent orders cannot all pass it), then one
     * conditional UPDATE takes the stock, so buyers can never take more than there is. */
    async reserve(tx: Tx, order: { id: string; userId: string }, dealId: number, gb: number) {
      const deal = await repository.lock(tx, dealId);
      if (deal?.status !== "live") throw dealUnavailable();
      if ((await repository.openOrders(tx, dealId, order.userId)) >= MAX_UNPAID_FLASH_SALE_ORDERS) {
        throw tooManyUnpaid();
      }
      const reserved = await repository.reserveStock(tx, dealId, gb);
      if (!reserved) throw soldOut(deal);
      await repository.insertReservation(tx, order.id, dealId, gb);
      publishSoon(tx, reserved);
    },

    /** Gives back the stock of flash-sale orders that ended unpaid; the deals that changed. */
    async releaseEnded(): Promise<DealRow[]> {
      const changed = new Set<number>();
      for (const { orderId, dealId } of await repository.endedReservations(SWEEP_BATCH)) {
        if (await releaseOne(orderId, dealId)) changed.add(dealId);
      }
      const rows = await Promise.all([...changed].map((id) => repository.find(id)));
      return rows.filter((row): row is DealRow => row !== undefined);
    },

    /**
     * Inside the settlement transaction, the order and then the deal locked. A payment for an
     * order whose stock was given back takes it again while the sale has it; once the stock is
     * gone (sold to others), the full payment buys GB at the list price instead and the order's
     * note says so — the sale is never oversold and the money is never lost. A replay of a
     * payment already credited changes nothing.
     */
    async settlePayment(
      tx: Tx,
      { deal, row, orders }: { deal: DealRow; row: OrderRow; orders: Pick<DealOrderWrites, "priceAtList"> },
      status: "paid" | "partially_paid",
    ) {
      if (Number(row.creditedBytes) > 0 || row.paymentStatus === "refunded") return;
      const reservation = await repository.findReservation(tx, row.id);
      if (!reservation?.released) return;
      if (await repository.reclaimReservation(tx, row.id)) {
        publishSoon(tx, await repository.find(deal.id, tx));
        return;
      }
      // A part payment waits for the rest: the stock may be back by then.
      if (status !== "paid") return;
      const bytes = listPriceBytes(row);
      const note = `${SOLD_OUT_LIST_PRICE_NOTE}: ${bytesToGb(bytes)} GB at ${listPricePerGbUsd} USD per GB.`;
      await orders.priceAtList(tx, row.id, bytes, note);
    },
  };
}

export type FlashSaleStock = ReturnType<typeof createFlashSaleStock>;
