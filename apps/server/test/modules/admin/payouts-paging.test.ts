import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customer } from "../orders/helpers.ts";
import { type ConsoleApp, createConsoleApp, pendingPayout } from "./helpers.ts";

let t: ConsoleApp;
let ids: string[];

beforeAll(async () => {
  t = await createConsoleApp();
  const bob = await customer(t.app, "paging-bob@example.com");
  ids = [];
  for (let i = 0; i < 3; i++) ids.push(await pendingPayout(t.app, bob));
});
afterAll(() => t?.close());

const list = (query: string) =>
  t.app.inject({ method: "GET", url: `/admin/payouts?${query}`, headers: t.operator.headers });

describe("GET /admin/payouts pages on the server", () => {
  it("answers one page, newest first, with the total of every page", async () => {
    const first = await list("status=pending&page=1&per_page=2");
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ success: true, page: 1, per_page: 2, total: 3 });
    const second = (await list("status=pending&page=2&per_page=2")).json();
    expect(second).toMatchObject({ page: 2, per_page: 2, total: 3 });
    const seen = [...first.json().data, ...second.data].map((payout: { id: string }) => payout.id);
    expect(seen).toEqual([...ids].reverse());
    // Each payout names its customer by e-mail (the console shows it, not an id).
    expect(first.json().data.map((payout: { email: string }) => payout.email)).toEqual([
      "paging-bob@example.com",
      "paging-bob@example.com",
    ]);
    expect((await list("status=pending&page=3&per_page=2")).json()).toMatchObject({ data: [], total: 3 });
  });

  it("counts only the status asked for", async () => {
    expect((await list("status=sent")).json()).toMatchObject({ data: [], total: 0, page: 1, per_page: 50 });
  });

  it.each([
    ["page=0", "page must be at least 1"],
    ["per_page=501", "per_page must be between 1 and 500"],
    ["page=two", "page must be a number"],
    ["status=paid", "status must be pending, sent or failed"],
  ])("refuses %s with a message", async (query, message) => {
    const refused = await list(query);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ success: false, message });
  });
});
