import { schema, type Tx } from "@bytetoll/db";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { statusTable } from "../../lib/status-table.ts";

const { autoTopups } = schema;

type AutoTopupRow = typeof autoTopups.$inferSelect;
export type TopupState = "off" | "armed" | "crossed";

/**
 * THE moves an account's auto top-up may make. Its state is kept in two columns: `enabled` and
 * the crossing flag (`crossed_at`): off (not enabled), armed (on, waiting for the balance to fall
 * below the threshold) or crossed (on, this fall below the threshold handled: one top-up claimed).
 * - Only an armed one is claimed (crossed): an account turned off is never charged, and turning
 *   it on arms it afresh.
 * - A crossed one is armed again once the balance is at or above the threshold.
 * - Any of them may be turned off (by its customer, by removing the card, by the third failed
 *   charge in a row). A move to the same state changes settings, failures or the flag of an
 *   account turned off.
 */
export const TOPUP_STATE = statusTable<TopupState>("auto top-up", {
  off: ["off", "armed"],
  armed: ["armed", "crossed", "off"],
  crossed: ["crossed", "armed", "off"],
});

const STATE_SQL = sql<TopupState>`CASE WHEN NOT ${autoTopups.enabled} THEN 'off'
  WHEN ${autoTopups.crossedAt} IS NULL THEN 'armed' ELSE 'crossed' END`;

export function topupStateOf(row: Pick<AutoTopupRow, "enabled" | "crossedAt">): TopupState {
  if (!row.enabled) return "off";
  return row.crossedAt === null ? "armed" : "crossed";
}

/** What each state writes into its two columns (off keeps the flag as it is). */
const STATE_COLUMNS: Record<TopupState, PgUpdateSetSource<typeof autoTopups>> = {
  off: { enabled: false },
  armed: { enabled: true, crossedAt: null },
  crossed: { enabled: true, crossedAt: sql`coalesce(${autoTopups.crossedAt}, now())` },
};

/**
 * THE one UPDATE that changes an account's auto top-up state: the move is checked against
 * TOPUP_STATE first (a move it does not list throws before any SQL), and the row changes only
 * while its state is still one of `from` and `where` holds (compare-and-set).
 */
export async function moveTopupState(
  tx: Tx,
  userId: string,
  move: {
    from: readonly TopupState[];
    to: TopupState;
    set?: PgUpdateSetSource<typeof autoTopups>;
    where?: SQL | undefined;
  },
): Promise<AutoTopupRow[]> {
  TOPUP_STATE.assertMoves(move.from, move.to);
  return tx
    .update(autoTopups)
    .set({ ...move.set, ...STATE_COLUMNS[move.to], updatedAt: sql`now()` })
    .where(and(eq(autoTopups.userId, userId), inArray(STATE_SQL, [...move.from]), move.where))
    .returning();
}
