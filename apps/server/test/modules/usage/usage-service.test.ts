import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUsageService } from "../../../src/modules/usage/service.ts";
import { insertRollups } from "./rollup-fixtures.ts";

// The clock is pinned here, so the window's edges are checked to the day whatever time it is.
const NOW = new Date("2025-03-01T23:59:59.999Z");

let database: TestDatabase;
let userId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.query<{ id: string }>(
    "INSERT INTO users (email) VALUES ('pinned@example.com') RETURNING id",
  );
  userId = user!.id;
  await insertRollups(
    database,
    [
      { userId, daysAgo: 0, domain: "a.test", proxyType: "mobile", bytes: 1e9, requests: 1 },
      { userId, daysAgo: 6, domain: "a.test", proxyType: "dc", bytes: 2e9, requests: 2 },
      { userId, daysAgo: 7, domain: "a.test", proxyType: "dc", bytes: 4e9, requests: 4 },
      // Tomorrow's rows (a clock ahead of ours) are outside every window.
      { userId, daysAgo: -1, domain: "a.test", proxyType: "mobile", bytes: 8e9, requests: 8 },
    ],
    NOW,
  );
});
afterAll(() => database.close());

describe("usage windows", () => {
  const service = () => createUsageService({ database, now: () => NOW });

  it("7 days are today and the six UTC days before it, across a month end", async () => {
    const rows = await service().byDay(userId, 7);
    expect(rows.map((row) => row.date)).toEqual([
      "2025-02-23",
      "2025-02-24",
      "2025-02-25",
      "2025-02-26",
      "2025-02-27",
      "2025-02-28",
      "2025-03-01",
    ]);
    expect(rows[0]).toEqual({
      date: "2025-02-23",
      mobile_gb: 0,
      dc_gb: 2,
      mobile_requests: 0,
      dc_requests: 2,
      mobile_bytes: 0,
      dc_bytes: 2e9,
    });
    expect(rows[6]).toEqual({
      date: "2025-03-01",
      mobile_gb: 1,
      dc_gb: 0,
      mobile_requests: 1,
      dc_requests: 0,
      mobile_bytes: 1e9,
      dc_bytes: 0,
    });
  });

  it("every grouping sees the same window", async () => {
    expect(await service().byProxyType(userId, 7)).toEqual([
      { mobile_gb: 1, dc_gb: 2, mobile_requests: 1, dc_requests: 2, mobile_bytes: 1e9, dc_bytes: 2e9 },
    ]);
    expect(await service().byDomain(userId, 14, true)).toEqual([
      {
        value: "a.test",
        mobile_gb: 1,
        dc_gb: 6,
        mobile_requests: 1,
        dc_requests: 6,
        mobile_bytes: 1e9,
        dc_bytes: 6e9,
      },
    ]);
    expect(await service().byDay(userId, 1)).toEqual([
      {
        date: "2025-03-01",
        mobile_gb: 1,
        dc_gb: 0,
        mobile_requests: 1,
        dc_requests: 0,
        mobile_bytes: 1e9,
        dc_bytes: 0,
      },
    ]);
  });
});
