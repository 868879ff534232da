import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleApp, createConsoleApp } from "./helpers.ts";

let t: ConsoleApp;

beforeAll(async () => {
  t = await createConsoleApp();
});
afterAll(() => t?.close());

const jobs = async () => {
  const response = await t.app.inject({ method: "GET", url: "/admin/jobs", headers: t.operator.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Array<Record<string, unknown>>;
};

describe("GET /admin/jobs", () => {
  it("lists every background job with its queue, runs, failures and dead-lettered work", async () => {
    const names = (await jobs()).map((job) => job.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "auto-topup.charge-waiting",
        "deals.move-due",
        "intelligence.learn",
        "orders.expire",
        "subusers.limit-check",
        "webhooks.deliver",
      ]),
    );

    t.app.jobs.handle(
      "console.refused",
      async () => {
        throw new Error("the provider refused");
      },
      1,
    );
    await t.app.jobs.enqueue("console.refused", { maxAttempts: 2 });
    await t.app.jobs.enqueue("console.refused", { key: "later", delayMs: 3_600_000 });
    await expect
      .poll(async () => (await jobs()).find((job) => job.name === "console.refused"), { timeout: 20_000 })
      .toMatchObject({
        queued: 1,
        running: 0,
        dead: 1,
        runs: 2,
        failures: 2,
        last_error: "the provider refused",
      });

    await expect
      .poll(async () => (await jobs()).find((job) => job.name === "webhooks.deliver"), { timeout: 20_000 })
      .toMatchObject({ every_ms: t.config.WEBHOOK_POLL_MS, dead: 0, last_finished_at: expect.any(String) });
  });
});
