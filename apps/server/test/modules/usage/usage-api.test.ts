import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { insertRollups, utcDay } from "./rollup-fixtures.ts";

let t: TestApp;
let alice: { token: string; id: string };
let bob: { token: string; id: string };

beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t.app, "alice-usage@example.com");
  bob = await signIn(t.app, "bob-usage@example.com");
  await insertRollups(t.database, [
    {
      userId: alice.id,
      daysAgo: 0,
      domain: "example.com",
      proxyType: "mobile",
      bytes: 1_234_567_890,
      requests: 10,
    },
    { userId: alice.id, daysAgo: 0, domain: "example.com", proxyType: "dc", bytes: 500_000_000, requests: 4 },
    {
      userId: alice.id,
      daysAgo: 2,
      domain: "shop.test",
      proxyType: "mobile",
      bytes: 2_000_000_000,
      requests: 7,
    },
    // Outside 7 days, inside 14 and 30.
    { userId: alice.id, daysAgo: 10, domain: "old.test", proxyType: "dc", bytes: 3_000_000_000, requests: 1 },
    // Outside 30 days, inside 90.
    {
      userId: alice.id,
      daysAgo: 45,
      domain: "older.test",
      proxyType: "mobile",
      bytes: 9_000_000_000,
      requests: 2,
    },
    // Outside 90 days.
    { userId: alice.id, daysAgo: 90, domain: "ancient.test", proxyType: "mobile", bytes: 1e12, requests: 1 },
    // Someone else's traffic never shows in Alice's numbers.
    { userId: bob.id, daysAgo: 0, domain: "example.com", proxyType: "mobile", bytes: 7e11, requests: 999 },
  ]);
});
afterAll(() => t?.close());

const usage = (query: string, token = alice.token) =>
  t.app.inject({ method: "GET", url: `/proxies/usage?${query}`, headers: bearer(token) });

describe("GET /proxies/usage?group_by=day", () => {
  it("answers one zero-filled row per UTC day of the last 7 days by default, oldest first, in JSON", async () => {
    const response = await usage("group_by=day");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    const body = response.json();
    expect(body.success).toBe(true);
    const today = utcDay(0);
    expect(body.data.map((row: { date: string }) => row.date)).toEqual(
      [6, 5, 4, 3, 2, 1, 0].map((n) => utcDay(n)),
    );
    expect(body.data.find((row: { date: string }) => row.date === today)).toEqual({
      date: today,
      mobile_gb: 1.23,
      dc_gb: 0.5,
      mobile_requests: 10,
      dc_requests: 4,
      mobile_bytes: 1_234_567_890,
      dc_bytes: 500_000_000,
    });
    expect(body.data.find((row: { date: string }) => row.date === utcDay(2))).toEqual({
      date: utcDay(2),
      mobile_gb: 2,
      dc_gb: 0,
      mobile_requests: 7,
      dc_requests: 0,
      mobile_bytes: 2_000_000_000,
      dc_bytes: 0,
    });
    const quiet = body.data.filter((row: { date: string }) => row.date !== today && row.date !== utcDay(2));
    expect(quiet).toHaveLength(5);
    for (const row of quiet) {
      expect(row).toEqual({
        date: row.date,
        mobile_gb: 0,
        dc_gb: 0,
        mobile_requests: 0,
        dc_requests: 0,
        mobile_bytes: 0,
        dc_bytes: 0,
      });
    }
  });

  it.each([1, 7, 14, 30, 90])("answers exactly %i rows for days=%i", async (days) => {
    const response = await usage(`group_by=day&days=${days}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toHaveLength(days);
  });

  it("counts each day once in the window and nothing outside it", async () => {
    const sum = async (days: number) => {
      const rows: Array<{ mobile_gb: number; dc_gb: number }> = (
        await usage(`group_by=day&days=${days}`)
      ).json().data;
      return Math.round(rows.reduce((total, row) => total + row.mobile_gb + row.dc_gb, 0) * 100) / 100;
    };
    expect(await sum(7)).toBe(3.73);
    expect(await sum(14)).toBe(6.73);
    expect(await sum(90)).toBe(15.73);
  });
});

describe("GET /proxies/usage?group_by=domain", () => {
  it("sorts the caller's domains by total bytes, largest first, over 7 days by default", async () => {
    const response = await usage("group_by=domain");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: [
        {
          value: "shop.test",
          mobile_gb: 2,
          dc_gb: 0,
          mobile_requests: 7,
          dc_requests: 0,
          mobile_bytes: 2_000_000_000,
          dc_bytes: 0,
        },
        {
          value: "example.com",
          mobile_gb: 1.23,
          dc_gb: 0.5,
          mobile_requests: 10,
          dc_requests: 4,
          mobile_bytes: 1_234_567_890,
          dc_bytes: 500_000_000,
        },
      ],
    });
  });

  it("keeps the top 5 and adds up the rest into one Others row with others=true", async () => {
    const carol = await signIn(t.app, "carol-usage@example.com");
    // Eight domains: d1 is the largest … d8 the smallest; d7 and d8 tie on bytes, requests decide.
    await insertRollups(t.database, [
      ...[1, 2, 3, 4, 5, 6].map((n) => ({
        userId: carol.id,
        daysAgo: 1,
        domain: `d${n}.test`,
        proxyType: "mobile" as const,
        bytes: (10 - n) * 1e9,
        requests: n,
      })),
      { userId: carol.id, daysAgo: 1, domain: "d6.test", proxyType: "dc", bytes: 0.25e9, requests: 3 },
      { userId: carol.id, daysAgo: 1, domain: "d8.test", proxyType: "dc", bytes: 1e9, requests: 9 },
      { userId: carol.id, daysAgo: 1, domain: "d7.test", proxyType: "dc", bytes: 1e9, requests: 2 },
    ]);
    const top = (await usage("group_by=domain&others=true", carol.token)).json().data;
    expect(top.map((row: { value: string }) => row.value)).toEqual([
      "d1.test",
      "d2.test",
      "d3.test",
      "d4.test",
      "d5.test",
      "Others",
    ]);
    expect(top[5]).toEqual({
      value: "Others",
      mobile_gb: 4,
      dc_gb: 2.25,
      mobile_requests: 6,
      dc_requests: 14,
      mobile_bytes: 4_000_000_000,
      dc_bytes: 2_250_000_000,
    });

    const all = (await usage("group_by=domain&others=false", carol.token)).json().data;
    expect(all.map((row: { value: string }) => row.value)).toEqual([
      "d1.test",
      "d2.test",
      "d3.test",
      "d4.test",
      "d5.test",
      "d6.test",
      "d8.test",
      "d7.test",
    ]);
  });

  it("adds no Others row when there are five domains or fewer", async () => {
    const data = (await usage("group_by=domain&others=true&days=90")).json().data;
    expect(data.map((row: { value: string }) => row.value)).toEqual([
      "older.test",
      "old.test",
      "shop.test",
      "example.com",
    ]);
  });

  it("answers an empty list for an account without traffic", async () => {
    const dave = await signIn(t.app, "dave-usage@example.com");
    expect((await usage("group_by=domain&others=true", dave.token)).json()).toEqual({
      success: true,
      data: [],
    });
  });
});

describe("GET /proxies/usage?group_by=proxy_type", () => {
  it("answers one row of the four metric fields over 30 days by default", async () => {
    const response = await usage("group_by=proxy_type");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: [
        {
          mobile_gb: 3.23,
          dc_gb: 3.5,
          mobile_requests: 17,
          dc_requests: 5,
          mobile_bytes: 3_234_567_890,
          dc_bytes: 3_500_000_000,
        },
      ],
    });
  });

  it("answers zeros, not an empty list, for an account without traffic", async () => {
    const erin = await signIn(t.app, "erin-usage@example.com");
    expect((await usage("group_by=proxy_type&days=1", erin.token)).json().data).toEqual([
      { mobile_gb: 0, dc_gb: 0, mobile_requests: 0, dc_requests: 0, mobile_bytes: 0, dc_bytes: 0 },
    ]);
  });

  it("gives the exact bytes beside the rounded GB, so a few KB is not 0 GB", async () => {
    const frank = await signIn(t.app, "frank-usage@example.com");
    await insertRollups(t.database, [
      { userId: frank.id, daysAgo: 0, domain: "tiny.test", proxyType: "mobile", bytes: 4_321, requests: 3 },
      { userId: frank.id, daysAgo: 0, domain: "tiny.test", proxyType: "dc", bytes: 2_500_000, requests: 1 },
    ]);
    const exact = {
      mobile_gb: 0,
      dc_gb: 0,
      mobile_requests: 3,
      dc_requests: 1,
      mobile_bytes: 4_321,
      dc_bytes: 2_500_000,
    };
    expect((await usage("group_by=proxy_type&days=1", frank.token)).json().data).toEqual([exact]);
    expect((await usage("group_by=domain&days=1", frank.token)).json().data).toEqual([
      { value: "tiny.test", ...exact },
    ]);
    expect((await usage("group_by=day&days=1", frank.token)).json().data).toEqual([
      { date: utcDay(0), ...exact },
    ]);
  });

  it("shows each account only its own traffic", async () => {
    expect((await usage("group_by=proxy_type&days=1", bob.token)).json().data).toEqual([
      { mobile_gb: 700, dc_gb: 0, mobile_requests: 999, dc_requests: 0, mobile_bytes: 7e11, dc_bytes: 0 },
    ]);
  });
});

describe("GET /proxies/usage refusals", () => {
  it.each([
    ["no group_by", "days=7", "group_by must be one of day, domain, proxy_type, subuser"],
    ["an unknown group_by", "group_by=hour", "group_by must be one of day, domain, proxy_type, subuser"],
    ["days outside the periods", "group_by=day&days=2", "days must be one of 1, 7, 14, 30, 90"],
    ["days that are not a number", "group_by=day&days=week", "days must be one of 1, 7, 14, 30, 90"],
    ["negative days", "group_by=day&days=-7", "days must be one of 1, 7, 14, 30, 90"],
    ["days given twice", "group_by=day&days=7&days=30", "days must be one of 1, 7, 14, 30, 90"],
    ["others that is not a boolean", "group_by=domain&others=yes", "others must be true or false"],
  ])("answers %s with 400 and a message", async (_label, query, message) => {
    const response = await usage(query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message });
  });

  it("answers a request without a valid token with 401 before looking at the query", async () => {
    for (const url of ["/proxies/usage?group_by=day", "/proxies/usage?group_by=nonsense"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ success: false, message: "Unauthorized" });
    }
  });
});

describe("API reference", () => {
  it("describes both usage calls and their query parameters in the OpenAPI document", async () => {
    const response = await t.app.inject({ method: "GET", url: "/docs/json" });
    expect(response.statusCode).toBe(200);
    const paths = response.json().paths;
    const names = (path: string) =>
      (paths[path].get.parameters as Array<{ name: string; in: string }>).map((p) => `${p.in}:${p.name}`);
    expect(names("/proxies/usage")).toEqual([
      "query:group_by",
      "query:days",
      "query:others",
      "query:subuser",
    ]);
    expect(names("/proxies/usage/export")).toEqual(["query:days", "query:format", "query:subuser"]);
  });
});
