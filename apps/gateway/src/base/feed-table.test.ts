import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FeedTable } from "./feed-table.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

/** A table read every 5 ms, and how often it was read. */
function counted() {
  const reads = { count: 0 };
  const table = new FeedTable({
    database,
    logger: { warn: () => {} },
    what: "test rows",
    announces: () => true,
    read: async () => {
      reads.count += 1;
    },
    everyMs: 5,
  });
  return { table, reads };
}

/** Waits until a table started now has been read `times` times: that long, a table still
 * scheduled would have been read again too. */
async function periodsPass(times: number): Promise<void> {
  const clock = counted();
  await clock.table.start();
  await expect.poll(() => clock.reads.count).toBeGreaterThanOrEqual(times);
  await clock.table.stop();
}

describe("a table kept in step with the database", () => {
  it("stopped while its feed is being opened, it neither reads nor schedules a read", async () => {
    const { table, reads } = counted();
    const starting = table.start();
    await table.stop();
    await starting;
    expect(reads.count).toBe(0);
    await periodsPass(4);
    expect(reads.count).toBe(0);
  });

  it("started, it reads every period until it is stopped", async () => {
    const { table, reads } = counted();
    await table.start();
    await expect.poll(() => reads.count).toBeGreaterThanOrEqual(3);
    await table.stop();
    const stoppedAt = reads.count;
    await periodsPass(4);
    expect(reads.count).toBe(stoppedAt);
  });
});
