import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANGES_CHANNEL, parseChange } from "./changes.ts";
import { applyLedgerEntry } from "./ledger.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";

let database: TestDatabase;
const received: string[] = [];
const liveness: boolean[] = [];
let stop: () => Promise<void>;

beforeAll(async () => {
  database = await createTestDatabase();
  stop = await database.listen(CHANGES_CHANNEL, {
    notification: (payload) => received.push(payload),
    live: (isLive) => liveness.push(isLive),
  });
});
afterAll(async () => {
  await stop();
  await database.close();
});

/** How long a notification may take to arrive, and how often to look. */
const DELIVERY = { timeout: 2_000, interval: 10 };

async function newUser(email: string): Promise<string> {
  const [row] = await database.query<{ id: string }>("INSERT INTO users (email) VALUES ($1) RETURNING id", [
    email,
  ]);
  return row!.id;
}

describe("the change feed", () => {
  it("parses what the triggers send and nothing else", () => {
    expect(parseChange("user:abc")).toEqual({ kind: "user", key: "abc" });
    expect(parseChange("api_token:ff:00")).toEqual({ kind: "api_token", key: "ff:00" });
    for (const bad of ["", "user", "user:", ":x", "later_kind:x"]) expect(parseChange(bad)).toBeNull();
  });

  it("announces a balance change, a revoked session, a replaced API token and an order, at commit", async () => {
    expect(liveness).toEqual([true]);
    const userId = await newUser("feed@example.com");
    await applyLedgerEntry(database.db, { userId, kind: "bonus", reference: "feed-1", deltaBytes: 1e9 });
    const [session] = await database.query<{ id: string }>(
      "INSERT INTO sessions (user_id, expires_at) VALUES ($1, now() + interval '1 hour') RETURNING id",
      [userId],
    );
    await database.query("UPDATE sessions SET revoked_at = now() WHERE id = $1", [session!.id]);
    await database.query(
      "INSERT INTO api_tokens (user_id, token_hash, token_enc) VALUES ($1, 'hash-1', 'x')",
      [userId],
    );
    await database.query("UPDATE api_tokens SET token_hash = 'hash-2' WHERE user_id = $1", [userId]);
    await database.query(
      `INSERT INTO orders (user_id, method, amount_cents, bytes, provider, expires_at)
       VALUES ($1, 'crypto', 300, 1000000000, 'sandbox', now() + interval '1 hour')`,
      [userId],
    );
    const expected = [`user:${userId}`, `session:${userId}`, "api_token:hash-1", `orders:${userId}`];
    await expect.poll(() => expected.every((payload) => received.includes(payload)), DELIVERY).toBe(true);
  });

  it("says nothing for a write that is rolled back or changes no watched column", async () => {
    const userId = await newUser("quiet@example.com");
    received.length = 0;
    await database
      .query(
        `WITH t AS (UPDATE users SET balance_bytes = 5 WHERE id = $1 RETURNING 1)
         SELECT 1 / 0 FROM t`,
        [userId],
      )
      .catch(() => {});
    await database.query("UPDATE users SET refund_address = 'x' WHERE id = $1", [userId]);
    // A write that does notify, afterwards: once it arrives, the earlier ones would have too.
    await applyLedgerEntry(database.db, { userId, kind: "bonus", reference: "quiet-1", deltaBytes: 1 });
    await expect.poll(() => received.length > 0, DELIVERY).toBe(true);
    expect(received).toEqual([`user:${userId}`]);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    "reconnects after losing its connection and says so",
    async () => {
      await database.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
      );
      await expect.poll(() => liveness.length >= 3, DELIVERY).toBe(true);
      expect(liveness.slice(0, 3)).toEqual([true, false, true]);
      const userId = await newUser("again@example.com");
      received.length = 0;
      await applyLedgerEntry(database.db, { userId, kind: "bonus", reference: "again-1", deltaBytes: 1 });
      await expect.poll(() => received.includes(`user:${userId}`), DELIVERY).toBe(true);
    },
  );
});
