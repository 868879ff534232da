import { bytesToGb } from "@bytetoll/contracts";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastDays } from "../../../src/modules/usage/day-window.ts";
import { createUsageService } from "../../../src/modules/usage/service.ts";
import { insertRollups, type RollupRow } from "./rollup-fixtures.ts";

// The API reads totals that triggers keep beside the rollups (migration 0005). Whatever happens to
// the rollups — upserts adding up, edits, deletions — every answer must equal the sum of the
// rollups themselves, for every period ending on every weekday.
const ANCHOR = new Date("2025-03-09T12:00:00Z"); // a Sunday
const DOMAINS = ["a.test", "b.test", "c.test", "d.test", "e.test", "f.test", "g.test"];

let database: TestDatabase;
let userId: string;

/** Deterministic pseudo-random numbers, so a failure can be reproduced. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.query<{ id: string }>(
    "INSERT INTO users (email) VALUES ('totals@example.com') RETURNING id",
  );
  userId = user!.id;
  const next = random(42);
  const rows: RollupRow[] = [];
  for (let i = 0; i < 400; i++) {
    rows.push({
      userId,
      daysAgo: Math.floor(next() * 110) - 3,
      domain: DOMAINS[Math.floor(next() * DOMAINS.length)]!,
      proxyType: next() < 0.7 ? "mobile" : "dc",
      bytes: Math.floor(next() * 3e9),
      requests: 1 + Math.floor(next() * 50),
    });
  }
  // Statement by statement, as flushes arrive: repeated keys take the upsert's UPDATE path.
  await insertRollups(database, rows, ANCHOR);
  // One multi-row statement too, as the gateway's batch is.
  await database.query(
    `INSERT INTO usage_rollups (user_id, day, domain, proxy_type, bytes, requests)
     SELECT $1, $2::date - (n % 40), 'h' || (n % 9) || '.test', CASE WHEN n % 2 = 0 THEN 'mobile' ELSE 'dc' END, n * 1000, 1
       FROM generate_series(1, 300) AS n
     ON CONFLICT (user_id, day, domain, proxy_type, subuser_id) DO UPDATE
       SET bytes = usage_rollups.bytes + EXCLUDED.bytes, requests = usage_rollups.requests + EXCLUDED.requests`,
    [userId, "2025-03-09"],
  );
  // An operator's corrections: a domain renamed, a day moved, some rows removed.
  await database.query(
    "UPDATE usage_rollups SET domain = 'renamed.test' WHERE user_id = $1 AND domain = 'g.test'",
    [userId],
  );
  await database.query(
    "UPDATE usage_rollups SET day = day - 1 WHERE user_id = $1 AND domain = 'f.test' AND day = '2025-03-01'",
    [userId],
  );
  await database.query("DELETE FROM usage_rollups WHERE user_id = $1 AND domain = 'e.test'", [userId]);
  await database.query("DELETE FROM usage_rollups WHERE user_id = $1 AND requests % 5 = 0", [userId]);
});
afterAll(() => database.close());

interface Stored {
  day: string;
  domain: string;
  proxy_type: string;
  bytes: string;
  requests: string;
}

async function expected(window: { from: string; to: string }) {
  const rows = await database.query<Stored>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, domain, proxy_type, bytes::text, requests::text
       FROM usage_rollups WHERE user_id = $1`,
    [userId],
  );
  const inWindow = rows.filter((row) => row.day >= window.from && row.day <= window.to);
  const totals = new Map<
    string,
    { mobile: number; dc: number; mobileRequests: number; dcRequests: number }
  >();
  for (const row of inWindow) {
    const total = totals.get(row.domain) ?? { mobile: 0, dc: 0, mobileRequests: 0, dcRequests: 0 };
    if (row.proxy_type === "mobile") {
      total.mobile += Number(row.bytes);
      total.mobileRequests += Number(row.requests);
    } else {
      total.dc += Number(row.bytes);
      total.dcRequests += Number(row.requests);
    }
    totals.set(row.domain, total);
  }
  const byDomain = [...totals.entries()]
    .sort(
      ([nameA, a], [nameB, b]) =>
        b.mobile + b.dc - (a.mobile + a.dc) ||
        b.mobileRequests + b.dcRequests - (a.mobileRequests + a.dcRequests) ||
        (nameA < nameB ? -1 : 1),
    )
    .map(([value, t]) => ({
      value,
      mobile_gb: bytesToGb(t.mobile),
      dc_gb: bytesToGb(t.dc),
      mobile_requests: t.mobileRequests,
      dc_requests: t.dcRequests,
      mobile_bytes: t.mobile,
      dc_bytes: t.dc,
    }));
  const sum = (
    pick: (t: { mobile: number; dc: number; mobileRequests: number; dcRequests: number }) => number,
  ) => [...totals.values()].reduce((acc, t) => acc + pick(t), 0);
  const byType = {
    mobile_gb: bytesToGb(sum((t) => t.mobile)),
    dc_gb: bytesToGb(sum((t) => t.dc)),
    mobile_requests: sum((t) => t.mobileRequests),
    dc_requests: sum((t) => t.dcRequests),
    mobile_bytes: sum((t) => t.mobile),
    dc_bytes: sum((t) => t.dc),
  };
  return { byDomain, byType, inWindow };
}

describe("usage totals kept by triggers", () => {
  it("answer every grouping exactly as the rollups add up, for every period ending on every weekday", async () => {
    for (let shift = 0; shift < 7; shift++) {
      const now = new Date(ANCHOR.getTime() - shift * 86_400_000);
      const service = createUsageService({ database, now: () => now });
      for (const days of [1, 7, 14, 30, 90] as const) {
        const want = await expected(lastDays(days, now));
        expect(await service.byDomain(userId, days, false)).toEqual(want.byDomain);
        expect(await service.byProxyType(userId, days)).toEqual([want.byType]);
        const byDay = await service.byDay(userId, days);
        expect(byDay).toHaveLength(days);
        const dayRequests = byDay.reduce((acc, row) => acc + row.mobile_requests + row.dc_requests, 0);
        expect(dayRequests).toBe(want.byType.mobile_requests + want.byType.dc_requests);
      }
    }
  });

  it("lets an account with usage be deleted", async () => {
    const [other] = await database.query<{ id: string }>(
      "INSERT INTO users (email) VALUES ('gone@example.com') RETURNING id",
    );
    await insertRollups(database, [
      { userId: other!.id, daysAgo: 0, domain: "x.test", proxyType: "mobile", bytes: 5, requests: 1 },
    ]);
    await database.query("DELETE FROM users WHERE id = $1", [other!.id]);
    const left = await database.query(
      `SELECT 1 FROM usage_daily_totals WHERE user_id = $1 UNION ALL SELECT 1 FROM usage_weekly_domains WHERE user_id = $1`,
      [other!.id],
    );
    expect(left).toEqual([]);
  });
});
