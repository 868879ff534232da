import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANGES_CHANNEL } from "./changes.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

/** How long a notification may take to arrive, and how often to look. */
const DELIVERY = { timeout: 2_000, interval: 10 };

/** Backends of this test's database that sit in LISTEN (PostgreSQL only). */
async function listeningBackends(): Promise<number> {
  const [row] = await database.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
  );
  return row?.n ?? 0;
}

describe("listeners of one channel in one process", () => {
  it("all hear every notification and are all told the feed is live", async () => {
    const heard: string[][] = [[], [], []];
    const live: boolean[][] = [[], [], []];
    const stops = await Promise.all(
      heard.map((list, i) =>
        database.listen(CHANGES_CHANNEL, {
          notification: (payload) => list.push(payload),
          live: (isLive) => live[i]?.push(isLive),
        }),
      ),
    );
    expect(live).toEqual([[true], [true], [true]]);
    await database.query("SELECT pg_notify($1, 'user:shared-1')", [CHANGES_CHANNEL]);
    await expect.poll(() => heard.every((list) => list.includes("user:shared-1")), DELIVERY).toBe(true);

    await stops[0]?.();
    await database.query("SELECT pg_notify($1, 'user:shared-2')", [CHANGES_CHANNEL]);
    await expect
      .poll(() => heard.slice(1).every((list) => list.includes("user:shared-2")), DELIVERY)
      .toBe(true);
    expect(heard[0]).not.toContain("user:shared-2");
    await Promise.all(stops.slice(1).map((stop) => stop()));
  });

  it.skipIf(!process.env.DATABASE_URL)("share one PostgreSQL connection, closed with the last", async () => {
    const quiet = { notification: () => {}, live: () => {} };
    const stops = await Promise.all([1, 2, 3].map(() => database.listen(CHANGES_CHANNEL, quiet)));
    expect(await listeningBackends()).toBe(1);
    await stops[0]?.();
    await stops[1]?.();
    expect(await listeningBackends()).toBe(1);
    await stops[2]?.();
    await expect.poll(listeningBackends, { timeout: 2_000, interval: 20 }).toBe(0);
  });
});
