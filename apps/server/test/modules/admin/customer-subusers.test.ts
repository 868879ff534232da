import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Customer, customer } from "../orders/helpers.ts";
import { type ConsoleApp, createConsoleApp } from "./helpers.ts";

const OWN = "00000000-0000-0000-0000-000000000000";
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

let t: ConsoleApp;
let owner: Customer;

beforeAll(async () => {
  t = await createConsoleApp();
  owner = await customer(t.app, "subuser-owner@example.com");
});
afterAll(() => t?.close());

async function createSubuser(who: Customer, payload: Record<string, unknown>) {
  const response = await t.app.inject({ method: "POST", url: "/subusers", headers: who.headers, payload });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { id: string; username: string; password: string };
}

/** Usage as the gateway's flush writes it: a rollup row, and (traffic of today) the sub-user's
 * period use. */
async function relayed(userId: string, subuserId: string, day: string, bytes: number, requests: number) {
  await t.database.query(
    `INSERT INTO usage_rollups (user_id, subuser_id, day, domain, proxy_type, bytes, requests)
     VALUES ($1, $2, $3::date, 'example.com', 'mobile', $4, $5)`,
    [userId, subuserId, day, bytes, requests],
  );
  if (subuserId === OWN || day !== daysAgo(0)) return;
  await t.database.query(
    `UPDATE subusers SET used_bytes = CASE WHEN period_start = subuser_period_start(limit_period)
       THEN used_bytes + $2::bigint ELSE $2::bigint END, period_start = subuser_period_start(limit_period)
     WHERE id = $1`,
    [subuserId, bytes],
  );
}

const detail = (id: string, query = "", headers = t.operator.headers) =>
  t.app.inject({ method: "GET", url: `/admin/customers/${id}${query}`, headers });

describe("a customer's sub-users in the console", () => {
  it("lists each sub-user's label, username, limit, period use, state and 30 days, a page at a time", async () => {
    const crawler = await createSubuser(owner, { label: "crawler", limit_gb: 2, limit_period: "day" });
    const reports = await createSubuser(owner, { label: "reports" });
    const gone = await createSubuser(owner, { label: "gone" });
    const disabled = await t.app.inject({
      method: "PATCH",
      url: `/subusers/${reports.id}`,
      headers: owner.headers,
      payload: { enabled: false },
    });
    expect(disabled.statusCode).toBe(200);
    for (let i = 0; i < 19; i++) await createSubuser(owner, { label: `batch ${i}` });
    await relayed(owner.id, crawler.id, daysAgo(0), 500_000_000, 40);
    await relayed(owner.id, crawler.id, daysAgo(3), 250_000_000, 10);
    await relayed(owner.id, crawler.id, daysAgo(45), 9_000_000_000, 99);
    await relayed(owner.id, OWN, daysAgo(1), 70_000, 7);
    await relayed(owner.id, gone.id, daysAgo(2), 3_000, 3);
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/subusers/${gone.id}`,
      headers: owner.headers,
    });
    expect(removed.statusCode).toBe(200);
    // Another customer's sub-users are not this one's.
    const other = await customer(t.app, "someone-else-entirely@example.com");
    await createSubuser(other, { label: "crawler" });

    const first = await detail(owner.id);
    expect(first.statusCode, first.body).toBe(200);
    const subusers = first.json().data.subusers;
    expect(subusers).toMatchObject({
      page: 1,
      per_page: 20,
      total: 21,
      main_credentials: { bytes: 70_000, requests: 7 },
      deleted: { bytes: 3_000, requests: 3 },
    });
    expect(subusers.data).toHaveLength(20);
    expect(subusers.data[0]).toEqual({
      id: crawler.id,
      label: "crawler",
      username: crawler.username,
      limit_gb: 2,
      limit_bytes: 2_000_000_000,
      limit_period: "day",
      used_gb: 0.5,
      used_bytes: 500_000_000,
      period_start: daysAgo(0),
      enabled: true,
      created_at: expect.any(String),
      last_30_days: { bytes: 750_000_000, gb: 0.75, requests: 50 },
    });
    expect(subusers.data[1]).toMatchObject({
      label: "reports",
      limit_gb: null,
      limit_period: "total",
      enabled: false,
      last_30_days: { bytes: 0, requests: 0 },
    });
    // The operator never sees a sub-user's password.
    expect(first.body).not.toContain(crawler.password);

    const second = (await detail(owner.id, "?subusers_page=2")).json().data.subusers;
    expect(second).toMatchObject({ page: 2, total: 21 });
    expect(second.data.map((row: { label: string }) => row.label)).toEqual(["batch 18"]);
  });

  it("refuses a bad page with 400 naming it, and a customer with 403", async () => {
    const bad = await detail(owner.id, "?subusers_page=0");
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, message: expect.stringContaining("subusers_page") });
    const asCustomer = await detail(owner.id, "", owner.headers);
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json().success).toBe(false);
  });

  it("shows none for a customer without sub-users", async () => {
    const lone = await customer(t.app, "no-subusers@example.com");
    const response = await detail(lone.id);
    expect(response.json().data.subusers).toEqual({
      data: [],
      page: 1,
      per_page: 20,
      total: 0,
      main_credentials: { bytes: 0, gb: 0, requests: 0 },
      deleted: { bytes: 0, gb: 0, requests: 0 },
    });
  });
});
