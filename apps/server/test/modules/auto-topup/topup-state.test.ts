import { inTransaction } from "@bytetoll/db";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAutoTopupRepository } from "../../../src/modules/auto-topup/repository.ts";
import { moveTopupState, TOPUP_STATE, type TopupState } from "../../../src/modules/auto-topup/topup-state.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

const STATES: TopupState[] = ["off", "armed", "crossed"];

/** An account whose auto top-up is in `state`, with a saved card and a balance below the
 * threshold (so a claim would charge it). */
async function accountIn(state: TopupState): Promise<string> {
  const [user] = await database.query<{ id: string }>(
    "INSERT INTO users (email, balance_bytes) VALUES (gen_random_uuid() || '@example.com', 10) RETURNING id",
  );
  await database.query(
    `INSERT INTO auto_topups (user_id, enabled, provider_method_id, card_provider, crossed_at)
     VALUES ($1, $2, 'pm_test', 'sandbox', CASE WHEN $3 THEN now() END)`,
    [user!.id, state !== "off", state === "crossed"],
  );
  return user!.id;
}

async function read(userId: string) {
  const [row] = await database.query<{ enabled: boolean; crossed_at: string | null; updated_at: string }>(
    "SELECT enabled, crossed_at::text, updated_at::text FROM auto_topups WHERE user_id = $1",
    [userId],
  );
  return row!;
}

const stateOf = (row: { enabled: boolean; crossed_at: string | null }): TopupState =>
  !row.enabled ? "off" : row.crossed_at === null ? "armed" : "crossed";

describe("an auto top-up's state moves only as its table allows", () => {
  it.each(STATES.flatMap((from) => STATES.map((to) => [from, to] as const)))(
    "%s → %s: moved when the table lists it, otherwise refused with nothing changed",
    async (from, to) => {
      const userId = await accountIn(from);
      const before = await read(userId);
      const move = inTransaction(database.db, (tx) => moveTopupState(tx, userId, { from: [from], to }));
      if (TOPUP_STATE.canMove(from, to)) {
        expect(await move).toHaveLength(1);
        expect(stateOf(await read(userId))).toBe(to);
        return;
      }
      await expect(move).rejects.toThrow(`may not move ${from} → ${to}`);
      expect(await read(userId)).toEqual(before);
    },
  );

  it("never charges an account turned off: off → crossed is not a move", () => {
    expect(TOPUP_STATE.canMove("off", "crossed")).toBe(false);
  });

  it("leaves an account whose state is not the move's source alone (compare-and-set)", async () => {
    const userId = await accountIn("off");
    const before = await read(userId);
    const moved = await inTransaction(database.db, (tx) =>
      moveTopupState(tx, userId, { from: ["armed"], to: "crossed" }),
    );
    expect(moved).toHaveLength(0);
    expect(await read(userId)).toEqual(before);
  });

  it("claims a fall below the threshold once, and only for an account that is on", async () => {
    const repository = createAutoTopupRepository(database);
    const off = await accountIn("off");
    const on = await accountIn("armed");
    const claim = (userId: string) =>
      inTransaction(database.db, (tx) => repository.claimCrossing(tx, userId));
    expect(await claim(off)).toBeNull();
    expect(stateOf(await read(off))).toBe("off");
    expect(await claim(on)).not.toBeNull();
    expect(await claim(on)).toBeNull();
    expect(stateOf(await read(on))).toBe("crossed");
  });
});
