import { type Database, schema } from "@bytetoll/db";
import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { PayoutRow, Tx } from "./repository.ts";
import type { DepositStatus } from "./status-tables.ts";
import { moveDepositStatus, movePayoutStatus } from "./status-writes.ts";

const { dealDeposits, payouts, users } = schema;

/** The states in which a provider's refund or chargeback reaches a deposit; once a payout carries
 * it (paid_out) the operator settles the difference. */
export const REFUNDABLE_BY_PROVIDER: readonly DepositStatus[] = ["held", "credited", "refundable"];

/** SQL for group-buy deposits and payouts; no business rules here (a deposit order's status is
 * the orders module's, through DealOrderWrites). */
export function createDepositRepository(database: Database) {
  const { db } = database;
  return {
    /** Records a paid deposit once; false when this order's deposit is already recorded. */
    async insertDeposit(
      tx: Tx,
      deposit: {
        orderId: string;
        dealId: number;
        userId: string;
        amountCents: number;
        status: DepositStatus;
      },
    ): Promise<boolean> {
      const rows = await tx.insert(dealDeposits).values(deposit).onConflictDoNothing().returning();
      return rows.length > 0;
    },

    /** Locks the order's deposit, if it has one. */
    async lockDeposit(tx: Tx, orderId: string) {
      const [row] = await tx
        .select()
        .from(dealDeposits)
        .where(eq(dealDeposits.orderId, orderId))
        .for("update");
      return row;
    },

    /** What the provider gave back of a deposit: it keeps `amountCents`, `refundedCents` went back
     * in all, and at 0 left it is reversed. Compare-and-set on what was given back before, so a
     * reading applies once. */
    async refundDeposit(
      tx: Tx,
      orderId: string,
      change: { from: DepositStatus; fromRefundedCents: number; amountCents: number; refundedCents: number },
    ): Promise<boolean> {
      const rows = await moveDepositStatus(tx, eq(dealDeposits.orderId, orderId), {
        from: [change.from],
        to: change.amountCents === 0 ? "reversed" : change.from,
        set: { amountCents: change.amountCents, refundedCents: change.refundedCents },
        where: eq(dealDeposits.refundedCents, change.fromRefundedCents),
      });
      return rows.length > 0;
    },

    /** held → credited for every deposit of the deal; returns what was credited. */
    async creditHeld(tx: Tx, dealId: number) {
      const rows = await moveDepositStatus(tx, eq(dealDeposits.dealId, dealId), {
        from: ["held"],
        to: "credited",
      });
      return rows.map(({ orderId, userId, amountCents }) => ({ orderId, userId, amountCents }));
    },

    /** Per owner, the deposits of the deal in `statuses`, with the owner's refund address. */
    async depositsByOwner(tx: Tx, dealId: number, statuses: DepositStatus[], userId?: string) {
      const rows = await tx
        .select({
          userId: dealDeposits.userId,
          refundAddress: users.refundAddress,
          cents: sql<string>`sum(${dealDeposits.amountCents})`,
          held: sql<string>`sum(${dealDeposits.amountCents}) FILTER (WHERE ${dealDeposits.status} = 'held')`,
        })
        .from(dealDeposits)
        .innerJoin(users, eq(users.id, dealDeposits.userId))
        .where(
          and(
            eq(dealDeposits.dealId, dealId),
            inArray(dealDeposits.status, statuses),
            userId ? eq(dealDeposits.userId, userId) : undefined,
          ),
        )
        .groupBy(dealDeposits.userId, users.refundAddress);
      return rows.map((row) => ({
        userId: row.userId,
        refundAddress: row.refundAddress,
        cents: Number(row.cents),
        heldCents: Number(row.held ?? 0),
      }));
    },

    async insertPayout(
      tx: Tx,
      payout: { userId: string; dealId: number; kind: string; amountCents: number; walletAddress: string },
    ): Promise<PayoutRow> {
      const [row] = await tx.insert(payouts).values(payout).returning();
      if (!row) throw new Error("payout insert returned nothing");
      return row;
    },

    /** Moves an owner's deposits of the deal from `from` to `status` (with their payout). */
    async moveDeposits(
      tx: Tx,
      where: { dealId: number; userId: string; from: DepositStatus[] },
      to: { status: DepositStatus; payoutId: string | null },
    ): Promise<void> {
      await moveDepositStatus(
        tx,
        and(eq(dealDeposits.dealId, where.dealId), eq(dealDeposits.userId, where.userId)) as SQL,
        { from: where.from, to: to.status, set: { payoutId: to.payoutId } },
      );
    },

    /** The caller's deposits in a deal: open (held or owed back) and credited (bought data). */
    async depositCents(userId: string, dealId: number): Promise<{ open: number; credited: number }> {
      const [row] = await db
        .select({
          open: sql<string>`coalesce(sum(${dealDeposits.amountCents}) FILTER (WHERE ${dealDeposits.status} IN ('held', 'refundable')), 0)`,
          credited: sql<string>`coalesce(sum(${dealDeposits.amountCents}) FILTER (WHERE ${dealDeposits.status} = 'credited'), 0)`,
        })
        .from(dealDeposits)
        .where(and(eq(dealDeposits.userId, userId), eq(dealDeposits.dealId, dealId)));
      return { open: Number(row?.open ?? 0), credited: Number(row?.credited ?? 0) };
    },

    async listPayouts(filter: { status?: string; userId?: string; limit: number }): Promise<PayoutRow[]> {
      return db
        .select()
        .from(payouts)
        .where(
          and(
            filter.status ? eq(payouts.status, filter.status) : undefined,
            filter.userId ? eq(payouts.userId, filter.userId) : undefined,
          ),
        )
        .orderBy(desc(payouts.createdAt), desc(payouts.id))
        .limit(filter.limit);
    },

    /** pending → sent with the transaction hash; one conditional UPDATE. */
    async markPayoutSent(tx: Tx, id: string, txHash: string): Promise<PayoutRow | undefined> {
      const [row] = await movePayoutStatus(tx, id, { from: ["pending"], to: "sent", set: { txHash } });
      return row;
    },

    /** pending → failed; the deposits it carried become refundable (withdrawable again). */
    async markPayoutFailed(tx: Tx, id: string): Promise<PayoutRow | undefined> {
      const [row] = await movePayoutStatus(tx, id, { from: ["pending"], to: "failed" });
      if (row) {
        await moveDepositStatus(tx, eq(dealDeposits.payoutId, id), {
          from: ["paid_out"],
          to: "refundable",
          set: { payoutId: null },
        });
      }
      return row;
    },

    async findPayout(id: string): Promise<PayoutRow | undefined> {
      const [row] = await db.select().from(payouts).where(eq(payouts.id, id));
      return row;
    },
  };
}

export type DepositRepository = ReturnType<typeof createDepositRepository>;
