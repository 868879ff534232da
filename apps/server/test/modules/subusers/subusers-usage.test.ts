import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

const OWN = "00000000-0000-0000-0000-000000000000";
const today = () => new Date().toISOString().slice(0, 10);

let t: TestApp;
let owner: { token: string; id: string };
let scraper: { id: string };
let idle: { id: string };
const deletedId = "11111111-2222-3333-4444-555555555555";

const get = (url: string, token = owner.token) =>
  t.app.inject({ method: "GET", url, headers: bearer(token) });

/** Usage as the gateway's flush writes it: one rollup row per (day, domain, type, sub-user). */
async function rollup(subuserId: string, domain: string, proxyType: string, bytes: number, requests: number) {
  await t.database.query(
    `INSERT INTO usage_rollups (user_id, subuser_id, day, domain, proxy_type, bytes, requests)
     VALUES ($1, $2, $3::date, $4, $5, $6, $7)`,
    [owner.id, subuserId, today(), domain, proxyType, bytes, requests],
  );
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await signIn(t.app, "usage-subusers@example.com");
  const create = async (label: string) =>
    (
      await t.app.inject({
        method: "POST",
        url: "/subusers",
        headers: bearer(owner.token),
        payload: { label },
      })
    ).json().data;
  scraper = await create('scraper, "eu"');
  idle = await create("idle one");
  await rollup(OWN, "own.test", "mobile", 1_000, 1);
  await rollup(scraper.id, "a.test", "mobile", 5_000_000_000, 4);
  await rollup(scraper.id, "b.test", "dc", 30, 2);
  await rollup(deletedId, "gone.test", "mobile", 7, 1);
});
afterAll(() => t?.close());

describe("usage by sub-user", () => {
  it("gives a row per sub-user (its label), one for the main credentials and one for a deleted sub-user's usage", async () => {
    const response = await get("/proxies/usage?group_by=subuser&days=7");
    expect(response.statusCode).toBe(200);
    const rows = response.json().data;
    expect(
      rows.map((row: { value: string; subuser_id: string | null }) => [row.value, row.subuser_id]),
    ).toEqual([
      ['scraper, "eu"', scraper.id],
      ["Main credentials", null],
      ["Deleted sub-user", deletedId],
      ["idle one", idle.id],
    ]);
    expect(rows[0]).toMatchObject({
      mobile_gb: 5,
      mobile_bytes: 5_000_000_000,
      dc_bytes: 30,
      mobile_requests: 4,
      dc_requests: 2,
    });
    expect(rows[3]).toMatchObject({ mobile_bytes: 0, dc_bytes: 0, mobile_requests: 0 });
  });

  it("filters every grouping by one sub-user, or by the main credentials", async () => {
    const only = `subuser=${scraper.id}`;
    const byDomain = (await get(`/proxies/usage?group_by=domain&days=7&${only}`)).json().data;
    expect(byDomain.map((row: { value: string }) => row.value)).toEqual(["a.test", "b.test"]);
    const byType = (await get(`/proxies/usage?group_by=proxy_type&days=7&${only}`)).json().data;
    expect(byType).toEqual([expect.objectContaining({ mobile_bytes: 5_000_000_000, dc_bytes: 30 })]);
    const byDay = (await get(`/proxies/usage?group_by=day&days=1&${only}`)).json().data;
    expect(byDay).toEqual([
      expect.objectContaining({ date: today(), mobile_bytes: 5_000_000_000, dc_requests: 2 }),
    ]);
    const bySubuser = (await get(`/proxies/usage?group_by=subuser&days=7&${only}`)).json().data;
    expect(bySubuser.map((row: { value: string }) => row.value)).toEqual(['scraper, "eu"']);

    const main = (await get("/proxies/usage?group_by=domain&days=7&subuser=main")).json().data;
    expect(main.map((row: { value: string }) => row.value)).toEqual(["own.test"]);
    const all = (await get("/proxies/usage?group_by=proxy_type&days=7")).json().data;
    expect(all[0].mobile_bytes).toBe(5_000_000_000 + 1_000 + 7);
  });

  it("answers 404 for another customer's sub-user and 400 for a malformed one", async () => {
    const other = await signIn(t.app, "usage-subusers-other@example.com");
    const response = await get(`/proxies/usage?group_by=day&subuser=${scraper.id}`, other.token);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: "Sub-user not found" });
    expect((await get(`/proxies/usage/export?subuser=${scraper.id}`, other.token)).statusCode).toBe(404);
    const bad = await get("/proxies/usage?group_by=day&subuser=nobody");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("subuser");
    const badGrouping = await get("/proxies/usage?group_by=subusers");
    expect(badGrouping.json().message).toBe("group_by must be one of day, domain, proxy_type, subuser");
  });

  it("exports a sub-user column (its label, empty for the main credentials) and filters the export", async () => {
    const csv = (await get("/proxies/usage/export?days=7")).body;
    expect(csv.split("\r\n")).toEqual([
      "date,domain,proxy_type,bytes,requests,subuser",
      `${today()},a.test,mobile,5000000000,4,"scraper, ""eu"""`,
      `${today()},b.test,dc,30,2,"scraper, ""eu"""`,
      `${today()},gone.test,mobile,7,1,Deleted sub-user`,
      `${today()},own.test,mobile,1000,1,`,
      "",
    ]);
    const filtered = (await get(`/proxies/usage/export?days=7&subuser=${scraper.id}`)).body;
    expect(filtered.trimEnd().split("\r\n")).toHaveLength(3);
  });
});
