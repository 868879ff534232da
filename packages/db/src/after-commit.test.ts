import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { afterCommit, inTransaction } from "./after-commit.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

/** Whether another reader (another pool connection on PostgreSQL) sees the user `email`. */
const visible = async (email: string) =>
  (await database.query("SELECT 1 FROM users WHERE email = $1", [email])).length === 1;

describe("events raised inside a transaction", () => {
  it("are sent once, after COMMIT, when another connection already sees the change", async () => {
    const seenWhenSent: Array<Promise<boolean>> = [];
    await inTransaction(database.db, async (tx) => {
      await tx.execute(sql`INSERT INTO users (email) VALUES ('committed@example.com')`);
      afterCommit(tx, () => seenWhenSent.push(visible("committed@example.com")));
      expect(seenWhenSent).toHaveLength(0);
    });
    expect(seenWhenSent).toHaveLength(1);
    expect(await seenWhenSent[0]).toBe(true);
  });

  it("are never sent when the transaction rolls back", async () => {
    const sent: string[] = [];
    const failing = inTransaction(database.db, async (tx) => {
      await tx.execute(sql`INSERT INTO users (email) VALUES ('rolled-back@example.com')`);
      afterCommit(tx, () => sent.push("rolled-back"));
      // A later statement of the same transaction is refused: everything rolls back.
      await tx.execute(sql`INSERT INTO users (email) VALUES ('rolled-back@example.com')`);
    });
    await expect(failing).rejects.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([]);
    expect(await visible("rolled-back@example.com")).toBe(false);
  });

  it("cannot be raised in a transaction that would not hold them until COMMIT", async () => {
    const attempt = database.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO users (email) VALUES ('unheld@example.com')`);
      afterCommit(tx, () => {});
    });
    await expect(attempt).rejects.toThrow(/not opened by inTransaction/);
    expect(await visible("unheld@example.com")).toBe(false);
  });
});
