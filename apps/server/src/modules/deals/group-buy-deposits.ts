import { encodeDealId } from "@bytetoll/contracts";
import { creditDeposit, type Tx } from "@bytetoll/db";
import { dealPrice, depositBytes } from "./deal-view.ts";
import type { DepositRepository } from "./deposit-repository.ts";
import type { DealRow, DealsRepository, OrderRow } from "./repository.ts";
import type { DealOrderWrites } from "./settlement-hook.ts";
import type { DepositStatus } from "./status-tables.ts";

interface Deps {
  repository: Pick<DealsRepository, "activate" | "addDeposited" | "find">;
  deposits: Pick<
    DepositRepository,
    "creditHeld" | "depositsByOwner" | "moveDeposits" | "insertPayout" | "insertDeposit"
  >;
  publishSoon: (tx: Tx, row: DealRow | undefined | null) => void;
  /** Inside the activation's transaction, once per deposit: the deal.activated webhook. */
  joinedDealActivated?:
    | ((tx: Tx, userId: string, deal: { id: string; title: string }) => Promise<unknown>)
    | undefined;
}

/** A group buy's deposits: held at payment, credited once at activation, refunded when it ends
 * unmet. Every function runs inside a transaction that holds the deal's row lock. */
export function createGroupBuyDeposits({ repository, deposits, publishSoon, joinedDealActivated }: Deps) {
  /** live → activated once the deposits reach the target; each held deposit's GB reach the
   * ledger once (reference deal-deposit:{orderId}). */
  async function activateInTx(tx: Tx, deal: DealRow): Promise<DealRow | undefined> {
    const activated = await repository.activate(tx, deal.id);
    if (!activated) return undefined;
    for (const deposit of await deposits.creditHeld(tx, deal.id)) {
      await creditDepositInTx(tx, activated, deposit);
      await joinedDealActivated?.(tx, deposit.userId, {
        id: encodeDealId(activated.id),
        title: activated.title,
      });
    }
    return activated;
  }

  async function creditDepositInTx(
    tx: Tx,
    deal: DealRow,
    deposit: { orderId: string; userId: string; amountCents: number },
  ): Promise<void> {
    await creditDeposit(tx, {
      userId: deposit.userId,
      orderId: deposit.orderId,
      bytes: depositBytes(Number(deposit.amountCents), dealPrice(deal)),
      note: `Group buy ${encodeDealId(deal.id)}: ${deal.title}`,
    });
  }

  /** A group buy that ended unmet: each owner's held deposits become a payout to their refund
   * address, or, without one, refundable (withdrawn later with an address). */
  async function refundHeldInTx(tx: Tx, deal: DealRow, userId?: string): Promise<void> {
    let released = 0;
    for (const owner of await deposits.depositsByOwner(tx, deal.id, ["held"], userId)) {
      released += owner.cents;
      const where = { dealId: deal.id, userId: owner.userId, from: ["held"] satisfies DepositStatus[] };
      if (!owner.refundAddress) {
        await deposits.moveDeposits(tx, where, { status: "refundable", payoutId: null });
        continue;
      }
      const payout = await deposits.insertPayout(tx, {
        userId: owner.userId,
        dealId: deal.id,
        kind: "refund",
        amountCents: owner.cents,
        walletAddress: owner.refundAddress,
      });
      await deposits.moveDeposits(tx, where, { status: "paid_out", payoutId: payout.id });
    }
    if (released > 0) await repository.addDeposited(tx, deal.id, -released);
  }

  /** A deposit order is paid: the money is held by the deal (or, for a deal already activated,
   * credited; for one that has ended, refunded). Returns the paid order, or null if it was
   * already recorded. */
  async function holdDepositInTx(
    tx: Tx,
    { deal, row, orders }: { deal: DealRow; row: OrderRow; orders: Pick<DealOrderWrites, "markDepositPaid"> },
    reading: { payinHash?: string | null | undefined },
  ) {
    const paid = await orders.markDepositPaid(tx, row.id, reading.payinHash ?? null);
    if (!paid) return null;
    const deposit = {
      orderId: row.id,
      dealId: deal.id,
      userId: row.userId,
      amountCents: Number(row.amountCents),
    };
    const credited = deal.status === "activated";
    const inserted = await deposits.insertDeposit(tx, {
      ...deposit,
      status: credited ? "credited" : "held",
    });
    if (!inserted) return paid;
    await repository.addDeposited(tx, deal.id, deposit.amountCents);
    if (credited) await creditDepositInTx(tx, deal, deposit);
    else if (deal.status === "expired" || deal.status === "cancelled")
      await refundHeldInTx(tx, deal, row.userId);
    else await activateInTx(tx, deal);
    publishSoon(tx, await repository.find(deal.id, tx));
    return paid;
  }

  return { activateInTx, refundHeldInTx, holdDepositInTx };
}
