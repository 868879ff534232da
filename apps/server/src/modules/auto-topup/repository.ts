import { type Database, schema, type Tx } from "@bytetoll/db";
import { and, eq, sql } from "drizzle-orm";
import { ENDED_UNPAID_STATUSES, type OrderStatus, statusList } from "../../lib/order-statuses.ts";
import type { SavedCard } from "./card-vault.ts";
import { moveTopupState, topupStateOf } from "./topup-state.ts";

const { autoTopups, users } = schema;

export type AutoTopupRow = typeof autoTopups.$inferSelect;

/** What the customer sets with PUT /settings/auto-topup, in the stored units. */
export interface AutoTopupValues {
  enabled: boolean;
  thresholdBytes: number;
  amountCents: number;
  monthlyCapCents: number;
}

/** The first of this calendar month, UTC, as the database sees it. */
const MONTH_START = sql`(date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

/** The account's row locked until `tx` ends, and its balance read after the lock is held. */
async function lockWithBalance(tx: Tx, userId: string) {
  const [row] = await tx.select().from(autoTopups).where(eq(autoTopups.userId, userId)).for("update");
  if (!row) return null;
  const [user] = await tx.select({ balance: users.balanceBytes }).from(users).where(eq(users.id, userId));
  return { row, balanceBytes: Number(user?.balance ?? 0) };
}

/** SQL for auto top-up settings, the saved card and the crossing flag; no business rules here. */
export function createAutoTopupRepository(database: Database) {
  const { db } = database;
  return {
    async find(userId: string): Promise<AutoTopupRow | undefined> {
      const [row] = await db.select().from(autoTopups).where(eq(autoTopups.userId, userId));
      return row;
    },

    /** The account's row, made with the defaults if it has none, locked until `tx` ends. */
    async lock(tx: Tx, userId: string): Promise<AutoTopupRow> {
      await tx.insert(autoTopups).values({ userId }).onConflictDoNothing();
      const [row] = await tx.select().from(autoTopups).where(eq(autoTopups.userId, userId)).for("update");
      if (!row) throw new Error(`auto_topups row of ${userId} missing after insert`);
      return row;
    },

    /** Saves the settings onto the row `lock` returned. Turning it on (from off) arms it and
     * forgets earlier failures: the balance is judged afresh, so a balance already below the
     * threshold tops up at once. */
    async save(tx: Tx, before: AutoTopupRow, values: AutoTopupValues): Promise<AutoTopupRow> {
      const from = topupStateOf(before);
      const to = !values.enabled ? "off" : from === "off" ? "armed" : from;
      const [row] = await moveTopupState(tx, before.userId, {
        from: [from],
        to,
        set: { ...values, ...(from === "off" && to === "armed" ? { failures: 0 } : {}) },
      });
      if (!row) throw new Error(`auto_topups row of ${before.userId} missing`);
      return row;
    },

    /** A card page was opened: the one completing it saves the card (a later page replaces it). */
    async startSetup(tx: Tx, userId: string, setup: { setupId: string; provider: string }) {
      await tx
        .update(autoTopups)
        .set({
          setupId: setup.setupId,
          setupSessionId: null,
          setupStartedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(autoTopups.userId, userId));
    },

    async attachSetupSession(setupId: string, sessionId: string | null, customerId: string | null) {
      await db
        .update(autoTopups)
        .set({
          setupSessionId: sessionId,
          ...(customerId ? { providerCustomerId: customerId } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(autoTopups.setupId, setupId));
    },

    async findBySetup(setupId: string): Promise<AutoTopupRow | undefined> {
      const [row] = await db.select().from(autoTopups).where(eq(autoTopups.setupId, setupId));
      return row;
    },

    async findBySetupSession(sessionId: string): Promise<AutoTopupRow | undefined> {
      const [row] = await db.select().from(autoTopups).where(eq(autoTopups.setupSessionId, sessionId));
      return row;
    },

    /** The card a completed card page saved, in place of any earlier one (whose id is returned so
     * it can be forgotten at the provider). Null when this page was not the account's latest. */
    async saveCard(
      setupId: string,
      provider: "sandbox" | "stripe",
      card: SavedCard,
    ): Promise<{ row: AutoTopupRow; replacedMethodId: string | null } | null> {
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(autoTopups)
          .where(eq(autoTopups.setupId, setupId))
          .for("update");
        if (!before) return null;
        const [row] = await tx
          .update(autoTopups)
          .set({
            cardProvider: provider,
            providerCustomerId: card.customerId ?? before.providerCustomerId,
            providerMethodId: card.methodId,
            cardBrand: card.brand,
            cardLast4: card.last4,
            setupId: null,
            setupSessionId: null,
            setupStartedAt: null,
            failures: 0,
            updatedAt: sql`now()`,
          })
          .where(and(eq(autoTopups.userId, before.userId), eq(autoTopups.setupId, setupId)))
          .returning();
        if (!row) return null;
        const replaced = before.providerMethodId !== card.methodId ? before.providerMethodId : null;
        return { row, replacedMethodId: replaced };
      });
    },

    /** Removes the saved card, which turns auto top-up off. Returns the removed method's id. */
    async removeCard(userId: string): Promise<{
      row: AutoTopupRow;
      methodId: string | null;
      provider: "sandbox" | "stripe" | null;
    } | null> {
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(autoTopups)
          .where(eq(autoTopups.userId, userId))
          .for("update");
        if (!before) return null;
        const [row] = await moveTopupState(tx, userId, {
          from: [topupStateOf(before)],
          to: "off",
          set: { cardProvider: null, providerMethodId: null, cardBrand: null, cardLast4: null },
        });
        const provider = before.cardProvider as "sandbox" | "stripe" | null;
        return row ? { row, methodId: before.providerMethodId, provider } : null;
      });
    },

    /**
     * Moves the crossing flag to match the balance, under the row lock: armed → crossed (this
     * caller handles the crossing) when the balance is below the threshold; crossed → armed once
     * it is at or above it. Concurrent callers queue on the row, so of all instances exactly one
     * sees the flag set. Returns the row when this call set it, null otherwise.
     *
     * The row is locked by a statement of its own first and the balance read by a later one, so
     * the balance judged is one seen once the lock is held. Read before the lock instead, a caller
     * that read the drop below the threshold, then waited while another claimed the crossing and
     * its top-up was paid and re-armed the flag, saw the flag clear and the old balance, and
     * charged the card a second time.
     */
    async claimCrossing(tx: Tx, userId: string): Promise<AutoTopupRow | null> {
      const judged = await lockWithBalance(tx, userId);
      if (!judged) return null;
      const { row, balanceBytes } = judged;
      const state = topupStateOf(row);
      const below = balanceBytes < row.thresholdBytes;
      if (state === "armed" && below) {
        const [claimed] = await moveTopupState(tx, userId, { from: ["armed"], to: "crossed" });
        return claimed ?? null;
      }
      if (row.crossedAt !== null && !below) {
        const to = state === "off" ? "off" : "armed";
        await moveTopupState(tx, userId, { from: [state], to, set: { crossedAt: null } });
      }
      return null;
    },

    /** What auto top-ups took this calendar month (UTC): every one not failed, expired or cancelled,
     * those still being charged included, so the cap holds while a charge is in flight. */
    async spentThisMonthCents(executor: Tx | Database["db"], userId: string): Promise<number> {
      const { rows } = await executor.execute<{ cents: string | number }>(sql`
        SELECT coalesce(sum(amount_cents), 0) AS cents FROM orders
         WHERE user_id = ${userId} AND origin = 'auto_topup'
           AND payment_status NOT IN ${statusList(ENDED_UNPAID_STATUSES)}
           AND created_at >= ${MONTH_START}`);
      return Number(rows[0]?.cents ?? 0);
    },

    /** A charge's outcome, in the settlement's transaction: a paid one starts the failure count
     * again, and re-arms at once when its credit lifted the balance to the threshold (not only
     * when a later balance change is judged: usage in that second must not hide the rise); a
     * failed one adds to the count and the third in a row turns auto top-up off. */
    async recordOutcome(tx: Tx, userId: string, paid: boolean, maxFailures: number) {
      const judged = await lockWithBalance(tx, userId);
      if (!judged) return null;
      const { row, balanceBytes } = judged;
      const from = topupStateOf(row);
      const failures = paid ? 0 : row.failures + 1;
      const rearm = paid && balanceBytes >= row.thresholdBytes;
      const to = rearm && from === "crossed" ? "armed" : !paid && failures >= maxFailures ? "off" : from;
      const [after] = await moveTopupState(tx, userId, {
        from: [from],
        to,
        set: { failures, ...(rearm ? { crossedAt: null } : {}) },
      });
      return after ? { failures: after.failures, enabled: after.enabled } : null;
    },

    async emailOf(tx: Tx, userId: string): Promise<string> {
      const { rows } = await tx.execute<{ email: string }>(sql`SELECT email FROM users WHERE id = ${userId}`);
      return rows[0]?.email ?? "";
    },

    /** Auto top-up orders still waiting for their charge after `olderThanSeconds` (the instance
     * that made them stopped, or the provider did not answer): the sweep charges them again. */
    async unchargedOrders(olderThanSeconds: number): Promise<Array<{ id: string; user_id: string }>> {
      const { rows } = await db.execute<{ id: string; user_id: string }>(sql`
        SELECT id, user_id FROM orders
         WHERE origin = 'auto_topup' AND payment_status = ${"waiting" satisfies OrderStatus} AND expires_at > now()
           AND created_at < now() - make_interval(secs => ${olderThanSeconds})
         ORDER BY created_at LIMIT 20`);
      return rows;
    },
  };
}

export type AutoTopupRepository = ReturnType<typeof createAutoTopupRepository>;
