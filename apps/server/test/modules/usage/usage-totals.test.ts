import { bytesToGb } from "@bytetoll/contracts";
import { schema } from "@bytetoll/db";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastDays } from "../../../src/modules/usage/day-window.ts";
import { createUsageService } from "../../../src/modules/usage/service.ts";
import { insertRollups, type RollupRow } from "./rollup-fixtures.ts";

// The API reads totals that triggers keep beside the rollups (migrations 0005, 0023, 0030). Whatever
// happens to the rollups — upserts adding up, edits, deletions, rows moved between credentials —
// every answer, for all credentials and for each one alone, must equal the sum of the rollups
// themselves, for every period ending on every day of a 28-day span (so on every weekday and at
// every place in the span), including days before rows the gateway has already filed.
const ANCHOR = new Date("2025-03-09T12:00:00Z"); // a Sunday
const DOMAINS = ["a.test", "b.test", "c.test", "d.test", "e.test", "f.test", "g.test"];

let database: TestDatabase;
let userId: string;
let subuserIds: string[];

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
  const subusers = await database.query<{ id: string }>(
    `INSERT INTO subusers (user_id, label, username, password_hash, password_enc)
     SELECT $1, 'sub ' || n, 'totals-sub-' || n, 'unused', 'unused' FROM generate_series(1, 2) AS n RETURNING id`,
    [userId],
  );
  subuserIds = subusers.map((row) => row.id);
  const credentials = [schema.NO_SUBUSER, ...subuserIds];
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
      subuserId: credentials[Math.floor(next() * credentials.length)]!,
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
  await database.query(
    `UPDATE usage_rollups r SET subuser_id = $2
      WHERE user_id = $1 AND domain = 'd.test' AND day < '2025-02-01' AND subuser_id = $3
        AND NOT EXISTS (SELECT 1 FROM usage_rollups o WHERE o.user_id = r.user_id AND o.day = r.day
                          AND o.domain = r.domain AND o.proxy_type = r.proxy_type AND o.subuser_id = $2)`,
    [userId, subuserIds[1], schema.NO_SUBUSER],
  );
  await database.query("DELETE FROM usage_rollups WHERE user_id = $1 AND domain = 'e.test'", [userId]);
  await database.query("DELETE FROM usage_rollups WHERE user_id = $1 AND requests % 5 = 0", [userId]);
});
afterAll(() => database.close());

interface Stored {
  subuser_id: string;
  day: string;
  domain: string;
  proxy_type: string;
  bytes: string;
  requests: string;
}

function storedRollups(): Promise<Stored[]> {
  return database.query<Stored>(
    `SELECT subuser_id::text, to_char(day, 'YYYY-MM-DD') AS day, domain, proxy_type, bytes::text, requests::text
       FROM usage_rollups WHERE user_id = $1`,
    [userId],
  );
}

function expected(rows: Stored[], window: { from: string; to: string }, only: string | null) {
  const inWindow = rows.filter(
    (row) => row.day >= window.from && row.day <= window.to && (only === null || row.subuser_id === only),
  );
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
  it("answer every grouping exactly as the rollups add up, for all credentials and each alone, for every period ending on any day of 4 weeks", async () => {
    const rows = await storedRollups();
    for (let shift = 0; shift < 28; shift++) {
      const now = new Date(ANCHOR.getTime() - shift * 86_400_000);
      const service = createUsageService({ database, now: () => now });
      for (const days of [1, 7, 14, 30, 90] as const) {
        for (const only of [null, schema.NO_SUBUSER, ...subuserIds]) {
          const want = expected(rows, lastDays(days, now), only);
          expect(await service.byDomain(userId, days, false, only)).toEqual(want.byDomain);
          // The per-day totals have no spans: every weekday is every case.
          if (shift >= 7) continue;
          expect(await service.byProxyType(userId, days, only)).toEqual([want.byType]);
          const byDay = await service.byDay(userId, days, only);
          expect(byDay).toHaveLength(days);
          const dayRequests = byDay.reduce((acc, row) => acc + row.mobile_requests + row.dc_requests, 0);
          expect(dayRequests).toBe(want.byType.mobile_requests + want.byType.dc_requests);
        }
      }
    }
  }, 60_000);

  it("lets an account with usage be deleted", async () => {
    const [other] = await database.query<{ id: string }>(
      "INSERT INTO users (email) VALUES ('gone@example.com') RETURNING id",
    );
    await insertRollups(database, [
      { userId: other!.id, daysAgo: 0, domain: "x.test", proxyType: "mobile", bytes: 5, requests: 1 },
    ]);
    await database.query("DELETE FROM users WHERE id = $1", [other!.id]);
    const left = await database.query(
      `SELECT 1 FROM usage_daily_totals WHERE user_id = $1 UNION ALL SELECT 1 FROM usage_domain_totals WHERE user_id = $1`,
      [other!.id],
    );
    expect(left).toEqual([]);
  });
});
