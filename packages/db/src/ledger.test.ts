import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyLedgerEntry } from "./ledger.ts";
import { users } from "./schema.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe("ledger entries", () => {
  it("credits once and ignores a replay of the same reference", async () => {
    const [user] = await database.db.insert(users).values({ email: "ledger@example.com" }).returning();
    if (!user) throw new Error("no user");
    const entry = { userId: user.id, kind: "purchase" as const, reference: "order-1", deltaBytes: 5e9 };
    const first = await applyLedgerEntry(database.db, entry);
    const replays = await Promise.all([1, 2, 3].map(() => applyLedgerEntry(database.db, entry)));
    expect(first).toEqual({ applied: true, balanceBytes: 5e9 });
    expect(replays.every((r) => !r.applied)).toBe(true);
    const [row] = await database.query<{ balance: string; total: string }>(
      "SELECT u.balance_bytes AS balance, (SELECT sum(delta_bytes) FROM ledger_entries WHERE user_id = u.id) AS total FROM users u WHERE u.id = $1",
      [user.id],
    );
    expect(Number(row?.balance)).toBe(5e9);
    expect(Number(row?.total)).toBe(5e9);
  });
});
