import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Gateway } from "@bytetoll/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { curlStatus, startTestGateway } from "../../helpers/test-gateway.ts";
import { customer } from "../orders/helpers.ts";
import { eventually } from "../webhooks/receiver.ts";
import {
  ADMIN_TOKEN,
  adjustBalance,
  balanceBytesOf,
  GB,
  putSettings,
  saveSandboxCard,
  topupOrders,
} from "./helpers.ts";

const BODY_BYTES = 3_000_000;

let t: TestApp;
let gateway: Gateway;
let origin: http.Server;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_TOKEN });
  origin = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/octet-stream", "content-length": BODY_BYTES });
    response.end(Buffer.alloc(BODY_BYTES, 120));
  });
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  gateway = await startTestGateway(t.database, { flushIntervalMs: 200 });
});
afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
  await t?.close();
});

describe("auto top-up and proxy traffic", () => {
  it("tops up once when the gateway's debits take the balance below the threshold", async () => {
    const dave = await customer(t.app, "proxy-topup@example.com");
    await saveSandboxCard(t.app, dave);
    // 2 MB above the 1 GB threshold: one 3 MB download through the proxy crosses it.
    await adjustBalance(t.app, dave, 0.002);
    const saved = await putSettings(t.app, dave, {
      enabled: true,
      threshold_gb: 1,
      amount_usd: 3,
      monthly_cap_usd: 30,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const credentials = await t.app.inject({
      method: "GET",
      url: "/credentials/latest",
      headers: dave.headers,
    });
    const { username, password } = credentials.json().data;
    const target = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/download`;
    expect(await curlStatus(gateway.httpPort, username, password, target)).toBe(200);

    const [order] = await eventually(
      "the top-up paid",
      () => topupOrders(t.app, dave.id),
      (rows) => rows[0]?.payment_status === "paid",
    );
    expect(Number(order?.amount_cents)).toBe(300);
    // The download was billed and the top-up's 1 GB credited on top.
    const balance = await eventually(
      "the flush billed",
      () => balanceBytesOf(t.app, dave.id),
      (b) => b < 2.002 * GB,
    );
    expect(balance).toBeLessThanOrEqual(2.002 * GB - BODY_BYTES);
    expect(balance).toBeGreaterThan(1.9 * GB);
    // More traffic above the threshold makes no second top-up. To know the balance change it made
    // was judged, an operator's debit then takes the balance below the threshold: that change is
    // judged after it and must make exactly one more top-up — a third would be the download's.
    expect(await curlStatus(gateway.httpPort, username, password, target)).toBe(200);
    const afterSecond = await eventually(
      "the second download billed",
      () => balanceBytesOf(t.app, dave.id),
      (b) => b <= balance - BODY_BYTES,
    );
    await adjustBalance(t.app, dave, -Math.ceil((afterSecond / GB - 0.5) * 100) / 100);
    const rows = await eventually(
      "the debit's top-up paid",
      () => topupOrders(t.app, dave.id),
      (found) => found.length >= 2 && found.every((row) => row.payment_status === "paid"),
    );
    expect(rows).toHaveLength(2);
  });
});
