import { shareOf } from "@bytetoll/contracts";
import { reverseDeposit } from "@bytetoll/db";
import { dealPrice, depositBytes } from "./deal-view.ts";
import { type DepositRepository, REFUNDABLE_BY_PROVIDER } from "./deposit-repository.ts";
import type { DealRow, DealsRepository, OrderRow, Tx } from "./repository.ts";
import type { DealOrderWrites } from "./settlement-hook.ts";
import { DEPOSIT_STATUS } from "./status-tables.ts";

/** What a provider says it gave back of a deposit order: a refund with the share refunded so far
 * (`amount` of `of`, the provider's unit; absent: all of it), or a chargeback (all of it). */
export interface DepositReversal {
  status: "refunded" | "charged_back";
  refunded?: { amount: number; of: number } | undefined;
}

/** Cents of `paidCents` given back in all: the money module's share rule (rounded down, never
 * more than was paid), as for orders' refunds. */
function refundedCentsOf(paidCents: number, reversal: DepositReversal): number {
  if (reversal.status === "charged_back" || !reversal.refunded) return paidCents;
  return shareOf(paidCents, reversal.refunded.amount, reversal.refunded.of);
}

interface Deps {
  repository: Pick<DealsRepository, "addDeposited" | "find">;
  deposits: Pick<DepositRepository, "lockDeposit" | "refundDeposit">;
  publishSoon: (tx: Tx, row: DealRow | undefined) => void;
}

/**
 * The provider gave (part of) a deposit's money back: the deposit keeps the rest — held, credited
 * or owed back as before — and the part leaves the deal's count and, when it had bought data, the
 * ledger (the GB of that part). All of it gone: the deposit is reversed and its order refunded.
 * Returns the order when something changed, null when nothing did (a replay, an older running
 * total, or a deposit a payout already carries: the operator settles that one), undefined when the
 * order holds no deposit.
 */
export function createDepositRefunds({ repository, deposits, publishSoon }: Deps) {
  return async function refundDepositInTx(
    tx: Tx,
    {
      deal,
      row,
      orders,
    }: { deal: DealRow; row: OrderRow; orders: Pick<DealOrderWrites, "markDepositRefunded"> },
    reversal: DepositReversal,
  ): Promise<OrderRow | null | undefined> {
    const deposit = await deposits.lockDeposit(tx, row.id);
    if (!deposit) return undefined;
    const held = Number(deposit.amountCents);
    const before = Number(deposit.refundedCents);
    const after = refundedCentsOf(held + before, reversal);
    if (after <= before || !(REFUNDABLE_BY_PROVIDER as readonly string[]).includes(deposit.status))
      return null;
    const left = held - (after - before);
    const changed = await deposits.refundDeposit(tx, row.id, {
      from: DEPOSIT_STATUS.parse(deposit.status),
      fromRefundedCents: before,
      amountCents: left,
      refundedCents: after,
    });
    if (!changed) return null;
    if (deposit.status !== "refundable") await repository.addDeposited(tx, deal.id, left - held);
    if (deposit.status === "credited") {
      const price = dealPrice(deal);
      await reverseDeposit(tx, {
        userId: deposit.userId,
        orderId: row.id,
        kind: reversal.status === "refunded" ? "refund" : "chargeback",
        bytes: depositBytes(held, price) - depositBytes(left, price),
        refundedAfterCents: after,
      });
    }
    publishSoon(tx, await repository.find(deal.id, tx));
    if (left > 0) return row;
    return (await orders.markDepositRefunded(tx, row.id)) ?? null;
  };
}
