import type { DealStatus } from "@bytetoll/contracts";
import { type Db, schema, type Tx } from "@bytetoll/db";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import {
  DEAL_STATUS,
  DEPOSIT_STATUS,
  type DepositStatus,
  PAYOUT_STATUS,
  type PayoutStatus,
} from "./status-tables.ts";

const { dealDeposits, deals, payouts } = schema;

type Executor = Db | Tx;

interface Move<S, Set> {
  from: readonly S[];
  to: S;
  set?: Set;
  where?: SQL | undefined;
}

/**
 * THE one UPDATE that sets a deal's status (status-tables.ts lists the moves): the move is checked
 * first, and the row changes only while its status is still one of `from` and `where` holds.
 */
export async function moveDealStatus(
  executor: Executor,
  which: SQL,
  move: Move<DealStatus, PgUpdateSetSource<typeof deals>>,
) {
  DEAL_STATUS.assertMoves(move.from, move.to);
  return executor
    .update(deals)
    .set({ ...move.set, status: move.to, updatedAt: sql`now()` })
    .where(and(which, inArray(deals.status, [...move.from]), move.where))
    .returning();
}

/** THE one UPDATE that sets deposits' status, checked and compare-and-set as a deal's. A move to
 * the same status changes the row but not its status (a part of it given back). */
export async function moveDepositStatus(
  tx: Tx,
  which: SQL,
  move: Move<DepositStatus, PgUpdateSetSource<typeof dealDeposits>>,
) {
  DEPOSIT_STATUS.assertMoves(move.from, move.to);
  return tx
    .update(dealDeposits)
    .set({ ...move.set, status: move.to, updatedAt: sql`now()` })
    .where(and(which, inArray(dealDeposits.status, [...move.from]), move.where))
    .returning();
}

/** THE one UPDATE that sets a payout's status, checked and compare-and-set as a deal's. */
export async function movePayoutStatus(
  tx: Tx,
  id: string,
  move: Move<PayoutStatus, PgUpdateSetSource<typeof payouts>>,
) {
  PAYOUT_STATUS.assertMoves(move.from, move.to);
  return tx
    .update(payouts)
    .set({ ...move.set, status: move.to, updatedAt: sql`now()` })
    .where(and(eq(payouts.id, id), inArray(payouts.status, [...move.from]), move.where))
    .returning();
}
