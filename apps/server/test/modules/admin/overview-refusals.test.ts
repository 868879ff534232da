import type { Overview } from "@bytetoll/contracts";
import type { Gateway } from "@bytetoll/gateway";
import { type ByteOrigin, getThroughProxy, startByteOrigin } from "@bytetoll/gateway/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway } from "../../helpers/test-gateway.ts";
import { type Customer, customer, sandboxPay } from "../orders/helpers.ts";
import { type ConsoleApp, createConsoleApp, tokenHeaders, waitingOrder } from "./helpers.ts";

let t: ConsoleApp;
let origin: ByteOrigin;

beforeAll(async () => {
  // No free GB: a new customer's first request is refused for want of balance.
  t = await createConsoleApp({ FREE_GB: "0" });
  origin = await startByteOrigin(1_000);
});
afterAll(async () => {
  await origin?.close();
  await t?.close();
});

async function proxyUser(who: Customer) {
  const response = await t.app.inject({ method: "GET", url: "/credentials/latest", headers: who.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { username: string; password: string };
}

async function overview(days: number): Promise<Overview> {
  const response = await t.app.inject({
    method: "GET",
    url: `/admin/overview?days=${days}`,
    headers: tokenHeaders,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe("GET /admin/overview refusals", () => {
  it("counts the gateways' refusals by reason and their share of the requests, once each, past their stop", async () => {
    expect((await overview(1)).refusals).toEqual({ requests: 0, by_reason: [] });

    const payer = await customer(t.app, "refusals-payer@example.com");
    expect((await sandboxPay(t.app, await waitingOrder(t.app, payer))).statusCode).toBe(200);
    const broke = await customer(t.app, "refusals-broke@example.com");
    const paid = await proxyUser(payer);
    const empty = await proxyUser(broke);

    // Two instances, each adding its own counts to the shared tables.
    const gateways: Gateway[] = [await startTestGateway(t.database), await startTestGateway(t.database)];
    const get = (gateway: Gateway, user: { username: string; password: string }) =>
      getThroughProxy({ proxyPort: gateway.httpPort, target: origin.url("/file"), ...user });
    const expected = {
      requests: 8,
      by_reason: [
        { reason: "bad_credentials", count: 3, share: 3 / 8 },
        { reason: "balance_exhausted", count: 2, share: 2 / 8 },
      ],
    };
    try {
      for (let i = 0; i < 3; i++) expect((await get(gateways[i % 2]!, paid)).status).toBe(200);
      for (let i = 0; i < 3; i++) {
        const refused = await get(gateways[i % 2]!, { username: paid.username, password: "wrong-password" });
        expect([refused.status, refused.error]).toEqual([407, "bad_credentials"]);
      }
      for (let i = 0; i < 2; i++) {
        const refused = await get(gateways[i % 2]!, empty);
        expect([refused.status, refused.error]).toEqual([402, "balance_exhausted"]);
      }
      // The running gateways write them within a report interval (5 s).
      await expect
        .poll(async () => (await overview(1)).refusals, { timeout: 15_000, interval: 250 })
        .toEqual(expected);
    } finally {
      for (const gateway of gateways) await gateway.close();
    }

    // The last counts written at stop add nothing twice.
    for (const days of [1, 7, 90]) expect((await overview(days)).refusals).toEqual(expected);
  }, 60_000);

  it("leaves out refusals older than the window", async () => {
    const before = (await overview(7)).refusals;
    await t.database.query(
      `INSERT INTO refusal_stats (instance_id, minute, reason, count)
       VALUES ('gone-instance', date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '10 days', 'bad_request', 5)`,
    );
    expect((await overview(7)).refusals).toEqual(before);
    const wide = (await overview(30)).refusals;
    expect(wide.requests).toBe(before.requests + 5);
    expect(wide.by_reason.find((row) => row.reason === "bad_request")?.count).toBe(5);
  });
});
