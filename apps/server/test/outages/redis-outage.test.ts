import { type FaultProxy, startFaultProxy } from "@bytetoll/db/fault-proxy";
import { createTestDatabase } from "@bytetoll/db/testing";
import { freePort } from "@bytetoll/gateway/testing";
import type { Socket } from "socket.io-client";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import type { Order } from "../../src/modules/orders/schemas.ts";
import { connectRealtime } from "../helpers/realtime-client.ts";
import { runAdmin, startServerProcess } from "../helpers/server-process.ts";
import { createTestApp } from "../helpers/test-app.ts";
import { createOrder, customerWithoutEmail, sandboxPay } from "../modules/orders/helpers.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const redisTarget = () => {
  const url = new URL(REDIS_URL);
  return { host: url.hostname, port: Number(url.port || 6379) };
};

const proxies: FaultProxy[] = [];
async function redisProxy(): Promise<FaultProxy> {
  const proxy = await startFaultProxy(redisTarget());
  proxies.push(proxy);
  return proxy;
}
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

const count = (text: string, needle: string) => text.split(needle).length - 1;

/** Signs in over HTTP through the dev outbox, as a customer of a development install would. */
async function signInOverHttp(base: string, email: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  expect((await post("/auth/login", { email })).status).toBe(200);
  const outbox = await fetch(`${base}/dev/outbox/messages?to=${encodeURIComponent(email)}`);
  const { data } = (await outbox.json()) as { data: { link: string }[] };
  const credential = new URL(data[0]?.link ?? "").searchParams.get("magic_credential");
  const verified = await post("/auth/magic/verify", { access_token: credential });
  expect(verified.status).toBe(200);
  return ((await verified.json()) as { data: { token: string } }).data.token;
}

describe("the server process while Redis is away", () => {
  it("starts without Redis, serves, warns once per outage, and keeps serving through a second outage", async () => {
    const proxy = await redisProxy();
    proxy.cut();
    // The whole product process: API and embedded gateway, both on the cut Redis.
    const server = await startServerProcess({
      REDIS_URL: proxy.urlFor(REDIS_URL),
      LOG_LEVEL: "info",
      GATEWAY_DISABLED: "false",
      GATEWAY_HTTP_PORT: String(await freePort()),
      GATEWAY_SOCKS_PORT: "0",
      GATEWAY_HTTPS_PORT: String(await freePort()),
    });
    try {
      const token = await signInOverHttp(server.url, "redis-outage@example.com");
      const order = () =>
        fetch(`${server.url}/transactions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ amount: 15, network_type: "solana" }),
        });
      for (let i = 0; i < 3; i++) expect((await order()).status).toBe(201);
      expect(count(server.output(), "Redis is unreachable: realtime fan-out")).toBe(1);
      expect(count(server.output(), "Redis is unreachable: rate limiting")).toBe(1);

      proxy.restore();
      await expect
        .poll(() => count(server.output(), "Redis is reachable again"), { timeout: 15_000, interval: 100 })
        .toBeGreaterThanOrEqual(2);
      expect((await order()).status).toBe(201);

      proxy.cut();
      for (let i = 0; i < 3; i++) {
        expect((await order()).status).toBe(201);
        expect(
          (await fetch(`${server.url}/transactions`, { headers: { authorization: `Bearer ${token}` } }))
            .status,
        ).toBe(200);
      }
      await expect
        .poll(() => count(server.output(), "Redis is unreachable: realtime fan-out"), {
          timeout: 15_000,
          interval: 100,
        })
        .toBe(2);
      expect(count(server.output(), "Redis is unreachable: rate limiting")).toBe(2);
      expect(server.child.exitCode).toBeNull();
      expect(server.output()).not.toContain("unhandled promise rejection");
      expect(await server.stop()).toBe(0);
    } finally {
      proxy.restore();
      await server.stop();
    }
  }, 90_000);
});

describe("rate limits while Redis is away", () => {
  it("still limit logins per IP, counted in this process, without waiting on Redis", async () => {
    const proxy = await redisProxy();
    proxy.cut();
    const t = await createTestApp({ REDIS_URL: proxy.urlFor(REDIS_URL) });
    try {
      const started = Date.now();
      let refused = 0;
      for (let i = 0; i < 25; i++) {
        const response = await t.app.inject({
          method: "POST",
          url: "/auth/login",
          payload: { email: `limited${i}@example.com` },
          remoteAddress: "198.51.100.77",
        });
        if (response.statusCode === 429) refused++;
      }
      expect(refused).toBeGreaterThan(0);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await t.close();
    }
  }, 30_000);
});

describe("realtime fan-out across two instances", () => {
  let socket: Socket | undefined;
  afterEach(() => socket?.disconnect());

  it("delivers locally during an outage and across instances again once Redis is back", async () => {
    const proxy = await redisProxy();
    const first = await createTestApp({ REDIS_URL: proxy.urlFor(REDIS_URL) });
    const second = await createTestApp({ REDIS_URL: proxy.urlFor(REDIS_URL) }, { database: first.database });
    try {
      await second.app.listen({ port: 0, host: "127.0.0.1" });
      const alice = await customerWithoutEmail(first.database, first.config.JWT_SECRET, "fanout@example.com");
      socket = await connectRealtime(second.app, alice.token);
      await socket.timeout(5_000).emitWithAck("subscribe", { channel: `topup-transactions.${alice.id}` });
      const paidSeen = new Set<string>();
      socket.on("topup-transaction.updated", (payload: { topup_transaction: Order }) => {
        if (payload.topup_transaction.payment_status === "paid")
          paidSeen.add(payload.topup_transaction.order_id);
      });

      proxy.cut();
      // Paid on the instance the customer is connected to: delivered although Redis is away.
      const local = await createOrder(second.app, alice, { amount: 3, network_type: "base" });
      expect((await sandboxPay(second.app, local.order_id)).statusCode).toBe(200);
      await expect.poll(() => paidSeen.has(local.order_id), { timeout: 5_000, interval: 10 }).toBe(true);
      // Paid on the other instance: answered (the fan-out is lost while Redis is away).
      const remote = await createOrder(first.app, alice, { amount: 3, network_type: "base" });
      expect((await sandboxPay(first.app, remote.order_id)).statusCode).toBe(200);

      proxy.restore();
      // Once both instances have reconnected, a change on the first reaches the second's client.
      // Until then a payment's event is lost, so each try waits (briefly) for its own event.
      await vi.waitUntil(
        async () => {
          const order = await createOrder(first.app, alice, { amount: 3, network_type: "base" });
          expect((await sandboxPay(first.app, order.order_id)).statusCode).toBe(200);
          return vi
            .waitUntil(() => paidSeen.has(order.order_id), { timeout: 300, interval: 10 })
            .catch(() => false);
        },
        { timeout: 20_000, interval: 10 },
      );
    } finally {
      await second.close();
      await first.close();
    }
  }, 60_000);
});

describe.skipIf(!process.env.DATABASE_URL)("the admin CLI while Redis is away", () => {
  it("marks an order paid, exits 0 and only warns that the live update is lost", async () => {
    const proxy = await redisProxy();
    const t = await createTestApp({}, { database: await createTestDatabase() });
    try {
      const alice = await customerWithoutEmail(t.database, t.config.JWT_SECRET, "cli-outage@example.com");
      const order = await createOrder(t.app, alice, { amount: 3, network_type: "base" });
      proxy.cut();
      const result = await runAdmin(["orders:pay", order.order_id], {
        DATABASE_URL: t.database.url ?? "",
        REDIS_URL: proxy.urlFor(REDIS_URL),
        JWT_SECRET: t.config.JWT_SECRET,
        PORT: "1", // nothing listens there
      });
      expect(result.code, result.output).toBe(0);
      const [row] = await t.database.query<{ payment_status: string }>(
        "SELECT payment_status FROM orders WHERE id = $1",
        [order.order_id],
      );
      expect(row?.payment_status).toBe("paid");
    } finally {
      await t.close();
      await t.database.close();
    }
  }, 60_000);
});
