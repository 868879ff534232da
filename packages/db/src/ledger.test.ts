import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adjustBalance,
  applyLedgerEntry,
  creditDeposit,
  creditPurchase,
  debitUsage,
  grantBonus,
  LedgerAssertionError,
  reverseDeposit,
  reversePurchase,
} from "./ledger.ts";
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

  it("names each way money moves with its own kind and reference, and a replay of any is a no-op", async () => {
    const [user] = await database.db.insert(users).values({ email: "writers@example.com" }).returning();
    if (!user) throw new Error("no user");
    const userId = user.id;
    const writes = [
      () => creditPurchase(database.db, { userId, orderId: "o1", creditedAfter: 10, deltaBytes: 10 }),
      () =>
        reversePurchase(database.db, {
          userId,
          orderId: "o1",
          kind: "refund",
          reversedAfter: 4,
          deltaBytes: 4,
        }),
      () =>
        reversePurchase(database.db, {
          userId,
          orderId: "o1",
          kind: "chargeback",
          reversedAfter: 10,
          deltaBytes: 6,
        }),
      () => grantBonus(database.db, { userId, bytes: 100, note: "Free" }),
      () => adjustBalance(database.db, { userId, key: "k1", deltaBytes: 5 }),
      () => debitUsage(database.db, { userId, batchId: "b1", bytes: 3 }),
      () => creditDeposit(database.db, { userId, orderId: "o2", bytes: 20, note: "Group buy" }),
      () =>
        reverseDeposit(database.db, {
          userId,
          orderId: "o2",
          kind: "refund",
          bytes: 20,
          refundedAfterCents: 5,
        }),
    ];
    const first = [];
    for (const writeOnce of writes) first.push(await writeOnce());
    const replays = [];
    for (const writeOnce of writes) replays.push(await writeOnce());
    expect(first.map((result) => result.applied)).toEqual(writes.map(() => true));
    expect(replays.map((result) => result.applied)).toEqual(writes.map(() => false));
    expect(first.at(-1)?.balanceBytes).toBe(10 - 4 - 6 + 100 + 5 - 3 + 20 - 20);
    const entries = await database.query<{ kind: string; reference: string; delta_bytes: string }>(
      "SELECT kind, reference, delta_bytes FROM ledger_entries WHERE user_id = $1 ORDER BY id",
      [userId],
    );
    expect(entries.map((entry) => [entry.kind, entry.reference, Number(entry.delta_bytes)])).toEqual([
      ["purchase", "order:o1:10", 10],
      ["refund", "order:o1:4", -4],
      ["chargeback", "order:o1", -6],
      ["bonus", `free-gb:${userId}`, 100],
      ["adjustment", "admin:k1", 5],
      ["usage", `b1:${userId}`, -3],
      ["deposit", "deal-deposit:o2", 20],
      ["refund", "deal-deposit:o2:5", -20],
    ]);
  });
});

describe("a ledger write its caller got wrong", () => {
  async function balanceAndEntries(userId: string) {
    const [row] = await database.query<{ balance: string; entries: string }>(
      "SELECT balance_bytes AS balance, (SELECT count(*) FROM ledger_entries WHERE user_id = $1) AS entries FROM users WHERE id = $1",
      [userId],
    );
    return { balance: Number(row?.balance), entries: Number(row?.entries) };
  }

  it.each([
    ["a fraction of a byte", () => ({ kind: "purchase" as const, deltaBytes: 2.5 })],
    ["a credit of nothing", () => ({ kind: "bonus" as const, deltaBytes: 0 })],
    ["a purchase that takes bytes", () => ({ kind: "purchase" as const, deltaBytes: -10 })],
    ["a usage debit that adds bytes", () => ({ kind: "usage" as const, deltaBytes: 10 })],
    ["a refund that adds bytes", () => ({ kind: "refund" as const, deltaBytes: 10 })],
    ["a number past 2^53", () => ({ kind: "deposit" as const, deltaBytes: 2 ** 60 })],
  ])("stops on %s and writes nothing (never rounded or clamped)", async (_name, make) => {
    const [user] = await database.db
      .insert(users)
      .values({ email: `assert-${Math.random()}@example.com` })
      .returning();
    if (!user) throw new Error("no user");
    const entry = { userId: user.id, reference: `assert:${user.id}`, ...make() };
    await expect(applyLedgerEntry(database.db, entry)).rejects.toThrow(LedgerAssertionError);
    expect(await balanceAndEntries(user.id)).toEqual({ balance: 0, entries: 0 });
  });

  it("lets an operator's adjustment go either way", async () => {
    const [user] = await database.db.insert(users).values({ email: "either@example.com" }).returning();
    if (!user) throw new Error("no user");
    await adjustBalance(database.db, { userId: user.id, key: "up", deltaBytes: 7 });
    await adjustBalance(database.db, { userId: user.id, key: "down", deltaBytes: -3 });
    expect(await balanceAndEntries(user.id)).toEqual({ balance: 4, entries: 2 });
  });
});
