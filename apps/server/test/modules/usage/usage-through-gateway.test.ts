import { applyLedgerEntry, hashSecret, randomSecret } from "@bytetoll/db";
import type { Gateway } from "@bytetoll/gateway";
import { type ByteOrigin, getOkThroughProxy, startByteOrigin } from "@bytetoll/gateway/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { startTestGateway } from "../../helpers/test-gateway.ts";

/** docs/product.md#gateway / issue 5: traffic shows in the API within 5 s of the transfer ending. */
const FRESHNESS_MS = 5_000;
const BODY_BYTES = 5_000_000;

let t: TestApp;
let gateway: Gateway;
let origin: ByteOrigin;

beforeAll(async () => {
  t = await createTestApp();
  // It closes after each response, so its own byte count is complete at socket close.
  origin = await startByteOrigin(BODY_BYTES);
  // The gateway's own flush timer (≤ 2 s) is what this test relies on; nothing flushes by hand.
  gateway = await startTestGateway(t.database, { flushIntervalMs: 1_000 });
});
afterAll(async () => {
  await gateway?.close();
  await origin?.close();
  await t?.close();
});

/** Proxy credentials and a balance as the credentials and order services would leave them. */
async function proxyUserFor(userId: string) {
  const username = `u${randomSecret(6).replace(/[^A-Za-z0-9]/g, "x")}`;
  const password = randomSecret(12);
  await t.database.query(
    "INSERT INTO proxy_credentials (user_id, username, password_hash, password_enc) VALUES ($1, $2, $3, 'unused')",
    [userId, username, hashSecret(password)],
  );
  await applyLedgerEntry(t.database.db, {
    userId,
    kind: "purchase",
    reference: `usage-test-${userId}`,
    deltaBytes: 10e9,
  });
  return { username, password };
}

/** One plain-HTTP request through the gateway; resolves once the origin has closed its socket. */
async function fetchThroughGateway(username: string, password: string): Promise<void> {
  const closed = origin.nextSocketClosed();
  await getOkThroughProxy({ proxyPort: gateway.httpPort, target: origin.url("/bytes"), username, password });
  await closed;
}

describe("usage through the gateway", () => {
  it("shows a transfer by day, domain, type and in the export within 5 s, matching the bytes moved", async () => {
    const user = await signIn(t.app, "traffic-usage@example.com");
    const { username, password } = await proxyUserFor(user.id);

    await fetchThroughGateway(username, password);
    await fetchThroughGateway(username, password);
    const ended = Date.now();

    const get = (url: string) => t.app.inject({ method: "GET", url, headers: bearer(user.token) });
    let csv = "";
    // A flush may land between a request being counted and its last bytes being metered:
    // the promise is that the whole transfer shows within the window, so wait for all of it.
    await expect
      .poll(
        async () => {
          csv = (await get("/proxies/usage/export?days=1")).body;
          return csv;
        },
        { timeout: Math.max(0, FRESHNESS_MS - (Date.now() - ended)), interval: 100 },
      )
      .toContain(`,${origin.bytesCarried()},2,\r\n`);
    const [header, line, ...rest] = csv.split("\r\n");
    expect(header).toBe("date,domain,proxy_type,bytes,requests,subuser");
    expect(rest).toEqual([""]);
    const [, domain, proxyType, bytes, requests] = line!.split(",");
    expect({ domain, proxyType, requests }).toEqual({
      domain: "127.0.0.1",
      proxyType: "mobile",
      requests: "2",
    });
    // Every byte the origin saw, request and response headers included (docs/product.md#gateway).
    expect(Number(bytes)).toBe(origin.bytesCarried());

    const expectedGb = Math.round((origin.bytesCarried() / 1e9) * 100) / 100;
    // The rounded GB and, beside it, every byte exactly.
    const exact = {
      mobile_gb: expectedGb,
      dc_gb: 0,
      mobile_requests: 2,
      dc_requests: 0,
      mobile_bytes: origin.bytesCarried(),
      dc_bytes: 0,
    };
    const byDomain = (await get("/proxies/usage?group_by=domain&days=1&others=true")).json().data;
    expect(byDomain).toEqual([{ value: "127.0.0.1", ...exact }]);
    const byType = (await get("/proxies/usage?group_by=proxy_type&days=1")).json().data;
    expect(byType).toEqual([exact]);
    const byDay = (await get("/proxies/usage?group_by=day&days=1")).json().data;
    expect(byDay[0]).toMatchObject({
      mobile_gb: expectedGb,
      mobile_requests: 2,
      mobile_bytes: origin.bytesCarried(),
    });
  });
});
