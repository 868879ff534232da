import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_PAGE_SIZE } from "../../../src/modules/usage/service.ts";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { insertRollups, utcDay } from "./rollup-fixtures.ts";

let t: TestApp;
let alice: { token: string; id: string };
let bob: { token: string; id: string };

beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t.app, "alice-export@example.com");
  bob = await signIn(t.app, "bob-export@example.com");
  await insertRollups(t.database, [
    {
      userId: alice.id,
      daysAgo: 0,
      domain: "example.com",
      proxyType: "mobile",
      bytes: 1_234_567_891,
      requests: 10,
    },
    { userId: alice.id, daysAgo: 0, domain: "example.com", proxyType: "dc", bytes: 17, requests: 1 },
    // Beyond 2^53: exact digits prove the counts never pass through a float.
    {
      userId: alice.id,
      daysAgo: 3,
      domain: "big.test",
      proxyType: "mobile",
      bytes: "9007199254740993",
      requests: 3,
    },
    // Not a hostname the gateway would file, but whatever is stored must survive RFC 4180.
    { userId: alice.id, daysAgo: 3, domain: 'odd,"name"\nhost', proxyType: "dc", bytes: 5, requests: 1 },
    { userId: alice.id, daysAgo: 40, domain: "old.test", proxyType: "mobile", bytes: 1, requests: 1 },
    { userId: bob.id, daysAgo: 0, domain: "bob-only.test", proxyType: "mobile", bytes: 99, requests: 9 },
  ]);
});
afterAll(() => t?.close());

const exportCsv = (query: string, token = alice.token) =>
  t.app.inject({ method: "GET", url: `/proxies/usage/export?${query}`, headers: bearer(token) });

describe("GET /proxies/usage/export", () => {
  it("sends the caller's rollups as an RFC 4180 CSV attachment with exact counts, oldest day first", async () => {
    const response = await exportCsv("days=30&format=csv");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="bytetoll-usage-${utcDay(29)}-to-${utcDay(0)}.csv"`,
    );
    expect(response.body).toBe(
      "date,domain,proxy_type,bytes,requests,subuser\r\n" +
        `${utcDay(3)},big.test,mobile,9007199254740993,3,\r\n` +
        `${utcDay(3)},"odd,""name""\nhost",dc,5,1,\r\n` +
        `${utcDay(0)},example.com,dc,17,1,\r\n` +
        `${utcDay(0)},example.com,mobile,1234567891,10,\r\n`,
    );
  });

  it("names a filtered export after its filter", async () => {
    expect((await exportCsv("days=7&subuser=main")).headers["content-disposition"]).toBe(
      `attachment; filename="bytetoll-usage-${utcDay(6)}-to-${utcDay(0)}-main.csv"`,
    );
  });

  it("defaults to 30 days and CSV, and honours a shorter window", async () => {
    const lines = (await exportCsv("")).body.trimEnd().split("\r\n");
    expect(lines).toHaveLength(5);
    const today = (await exportCsv("days=1")).body;
    expect(today.split("\r\n").filter(Boolean)).toEqual([
      "date,domain,proxy_type,bytes,requests,subuser",
      `${utcDay(0)},example.com,dc,17,1,`,
      `${utcDay(0)},example.com,mobile,1234567891,10,`,
    ]);
    expect((await exportCsv("days=90")).body).toContain(`${utcDay(40)},old.test,mobile,1,1,\r\n`);
  });

  it("sends only the header to an account without traffic", async () => {
    const carol = await signIn(t.app, "carol-export@example.com");
    expect((await exportCsv("days=7", carol.token)).body).toBe(
      "date,domain,proxy_type,bytes,requests,subuser\r\n",
    );
  });

  it("stitches pages together without losing or repeating a line", async () => {
    const dave = await signIn(t.app, "dave-export@example.com");
    const count = EXPORT_PAGE_SIZE * 2 + 7;
    // Spread over two days so pages break in the middle of a day and across days.
    await t.database.query(
      `INSERT INTO usage_rollups (user_id, day, domain, proxy_type, bytes, requests)
       SELECT $1, CASE WHEN n % 2 = 0 THEN $2::date ELSE $3::date END,
              'd' || lpad(n::text, 6, '0') || '.test', CASE WHEN n % 3 = 0 THEN 'dc' ELSE 'mobile' END, n, 1
         FROM generate_series(1, $4::int) AS n`,
      [dave.id, utcDay(1), utcDay(0), count],
    );
    const lines = (await exportCsv("days=7", dave.token)).body.trimEnd().split("\r\n").slice(1);
    expect(lines).toHaveLength(count);
    expect(new Set(lines).size).toBe(count);
    const total = lines.reduce((sum, line) => sum + Number(line.split(",")[3]), 0);
    expect(total).toBe((count * (count + 1)) / 2);
    expect([...lines].sort()).toEqual(lines);
  });

  it.each([
    ["days outside the periods", "days=3", "days must be one of 1, 7, 14, 30, 90"],
    ["an unknown format", "format=xlsx", "format must be csv"],
  ])("answers %s with 400 and a message", async (_label, query, message) => {
    const response = await exportCsv(query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message });
  });

  it("answers a request without a valid token with 401", async () => {
    const response = await t.app.inject({ method: "GET", url: "/proxies/usage/export?days=7" });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: "Unauthorized" });
  });
});
