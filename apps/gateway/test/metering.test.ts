import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { ProxyAgent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayUnderTest, gatewayModes } from "./support/gateway-modes.ts";
import {
  balanceOf,
  basic,
  curl,
  eventually,
  getOver,
  openTunnel,
  seedUser,
  testCertificate,
  until,
  usageOf,
} from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

async function withOrigin<T>(secure: boolean, fn: (origin: TestOrigin) => Promise<T>): Promise<T> {
  const origin = await startOrigin(secure ? await testCertificate() : undefined);
  try {
    return await fn(origin);
  } finally {
    await origin.close();
  }
}

/**
 * Billed bytes equal what the origin's raw sockets counted, on every path: against the gateway in
 * this process and, on PostgreSQL, against the standalone gateway with two workers (connections
 * spread over both; each commits its own batches to the same rows).
 */
for (const mode of gatewayModes) {
  describe.skipIf(mode.skip)(`metering is exact to the byte (${mode.name})`, () => {
    let database: TestDatabase;
    let gateway: GatewayUnderTest;
    beforeAll(async () => {
      database = await createTestDatabase();
      gateway = await mode.start(database, {
        resolveHost: async (host) => (host === "origin.test" ? ["127.0.0.1"] : []),
      });
    }, 60_000);
    afterAll(async () => {
      await gateway?.close();
      await database?.close();
    });
    /** Names only the in-process gateway's resolver knows. */
    const testResolver = mode.workers === 0;

    /** Flushes until the user's metered bytes reach what the origin counted (the last bytes of a
     * closing tunnel may still be in flight to the gateway); the caller then asserts equality. */
    async function settled(userId: string, originBytes: () => number): Promise<void> {
      await eventually(async () => {
        await gateway.flush();
        const rows = await usageOf(database, userId);
        return rows.reduce((sum, row) => sum + row.bytes, 0) >= originBytes();
      }, "metered bytes to reach the origin's count").catch(() => {});
    }

    it("bills plain HTTP requests on one kept-alive client connection exactly as the origin saw them", async () => {
      const user = await seedUser(database, 10_000_000);
      await withOrigin(false, async (origin) => {
        const agent = new ProxyAgent({
          uri: `http://127.0.0.1:${gateway.httpPort}`,
          token: basic(user.username, user.password),
          proxyTunnel: false,
        });
        const base = `http://127.0.0.1:${origin.port}`;
        const big = await request(`${base}/bytes/200000`, { dispatcher: agent });
        expect(big.statusCode).toBe(200);
        expect((await big.body.arrayBuffer()).byteLength).toBe(200_000);
        const echo = await request(`${base}/echo?x=1`, {
          dispatcher: agent,
          method: "POST",
          body: "z".repeat(5000),
        });
        expect(await echo.body.text()).toBe("z".repeat(5000));
        const chunked = await request(`${base}/chunked`, { dispatcher: agent });
        expect(await chunked.body.text()).toBe("first chunk\nsecond chunk\n");
        const hello = await request(`${base}/`, { dispatcher: agent });
        expect(hello.headers["x-seen-proxy-auth"]).toBe("false");
        await hello.body.text();
        await agent.close();

        expect(await gateway.flush()).toBe(true);
        const usage = await usageOf(database, user.userId);
        expect(usage).toEqual([
          { domain: "127.0.0.1", proxyType: "mobile", bytes: origin.bytes(), requests: 4 },
        ]);
        expect(await balanceOf(database, user.userId)).toBe(10_000_000 - origin.bytes());
      });
    });

    it("bills a CONNECT tunnel (TLS inside) exactly as the origin saw it, excluding the CONNECT exchange", async () => {
      const user = await seedUser(database, 10_000_000);
      await withOrigin(true, async (origin) => {
        const result = await curl([
          "-k",
          "-p",
          "-x",
          `http://${user.username}:${user.password}@127.0.0.1:${gateway.httpPort}`,
          `https://127.0.0.1:${origin.port}/bytes/150000`,
          "-o",
          "/dev/null",
        ]);
        expect(result.status).toBe(200);
        await until(() => origin.openSockets() === 0, "the tunnel to close");
        await settled(user.userId, () => origin.bytes());
        const usage = await usageOf(database, user.userId);
        expect(usage).toEqual([
          { domain: "127.0.0.1", proxyType: "mobile", bytes: origin.bytes(), requests: 1 },
        ]);
        expect(origin.bytes()).toBeGreaterThan(150_000);
      });
    });

    it("bills plain HTTP and CONNECT through the TLS listener (8443) without its outer TLS", async () => {
      const user = await seedUser(database, 10_000_000);
      const proxy = `https://${user.username}:${user.password}@127.0.0.1:${gateway.httpsPort}`;
      await withOrigin(false, async (origin) => {
        const plain = await curl([
          "--proxy-insecure",
          "-x",
          proxy,
          `http://127.0.0.1:${origin.port}/bytes/70000`,
        ]);
        expect(plain.status).toBe(200);
        expect(plain.body.length).toBe(70_000);
        await withOrigin(true, async (secureOrigin) => {
          const tunnel = await curl([
            "-k",
            "-p",
            "--proxy-insecure",
            "-x",
            proxy,
            `https://127.0.0.1:${secureOrigin.port}/bytes/90000`,
            "-o",
            "/dev/null",
          ]);
          expect(tunnel.status).toBe(200);
          await until(() => secureOrigin.openSockets() === 0, "the tunnel to close");
          await settled(user.userId, () => origin.bytes() + secureOrigin.bytes());
          const [row] = await usageOf(database, user.userId);
          expect(row?.bytes).toBe(origin.bytes() + secureOrigin.bytes());
          expect(row?.requests).toBe(2);
        });
      });
    });

    it.runIf(testResolver)(
      "attributes usage to the host name the client asked for, with the Host header intact",
      async () => {
        const user = await seedUser(database, 10_000_000);
        await withOrigin(false, async (origin) => {
          const result = await curl([
            "-x",
            `http://${user.username}:${user.password}@127.0.0.1:${gateway.httpPort}`,
            "-D",
            "-",
            `http://Origin.Test.:${origin.port}/echo`,
          ]);
          expect(result.status).toBe(200);
          expect(result.body.toLowerCase()).toContain(`x-seen-host: origin.test.:${origin.port}`);
          await gateway.flush();
          const usage = await usageOf(database, user.userId);
          expect(usage.map((u) => [u.domain, u.bytes])).toEqual([["origin.test", origin.bytes()]]);
        });
      },
    );

    it.runIf(testResolver)(
      "prices datacenter traffic at DC price / price, rounded up once per batch",
      async () => {
        const user = await seedUser(database, 10_000_000);
        await database.query(
          "INSERT INTO routing_rules (user_id, rule, service) VALUES ($1, 'origin.test', 'datacenter')",
          [user.userId],
        );
        await withOrigin(false, async (origin) => {
          const result = await curl([
            "-x",
            `http://${user.username}-routing-smart:${user.password}@127.0.0.1:${gateway.httpPort}`,
            `http://origin.test:${origin.port}/bytes/12345`,
          ]);
          expect(result.status).toBe(200);
          await gateway.flush();
          const usage = await usageOf(database, user.userId);
          expect(usage).toEqual([
            { domain: "origin.test", proxyType: "dc", bytes: origin.bytes(), requests: 1 },
          ]);
          expect(await balanceOf(database, user.userId)).toBe(10_000_000 - Math.ceil(origin.bytes() / 10));
        });
      },
    );

    it("reads a live tunnel as deltas: usage is committed while the tunnel is still open", async () => {
      const user = await seedUser(database, 10_000_000);
      await withOrigin(false, async (origin) => {
        const tunnel = await openTunnel(
          gateway.httpPort,
          basic(user.username, user.password),
          `127.0.0.1:${origin.port}`,
        );
        await getOver(tunnel, "/bytes/40000", 40_000);
        await gateway.flush();
        const [afterFirst] = await usageOf(database, user.userId);
        expect(afterFirst).toMatchObject({ bytes: origin.bytes(), requests: 1 });
        await getOver(tunnel, "/bytes/1000", 1000);
        await gateway.flush();
        const [afterSecond] = await usageOf(database, user.userId);
        expect(afterSecond).toMatchObject({ bytes: origin.bytes(), requests: 1 });
        expect(origin.openSockets()).toBe(1);
        tunnel.destroy();
      });
    });

    it("several plain requests share one client connection (keep-alive)", async () => {
      const user = await seedUser(database, 10_000_000);
      await withOrigin(false, async (origin) => {
        const socket = net.connect(gateway.httpPort, "127.0.0.1");
        const auth = basic(user.username, user.password);
        for (const size of [10, 2000, 30]) {
          await new Promise<void>((resolve) => {
            let data = "";
            const onData = (chunk: Buffer) => {
              data += chunk.toString("latin1");
              const end = data.indexOf("\r\n\r\n");
              if (end !== -1 && data.length - end - 4 >= size) {
                socket.removeListener("data", onData);
                resolve();
              }
            };
            socket.on("data", onData);
            socket.write(
              `GET http://127.0.0.1:${origin.port}/bytes/${size} HTTP/1.1\r\nHost: 127.0.0.1:${origin.port}\r\nProxy-Authorization: ${auth}\r\n\r\n`,
            );
          });
        }
        socket.destroy();
        await gateway.flush();
        expect(await usageOf(database, user.userId)).toEqual([
          { domain: "127.0.0.1", proxyType: "mobile", bytes: origin.bytes(), requests: 3 },
        ]);
      });
    });

    it("exposes metered bytes by proxy type, connections and flush timing on /metrics", async () => {
      const text = await (await fetch(`http://127.0.0.1:${gateway.metricsPort}/metrics`)).text();
      const bytes = (type: string) =>
        Number(
          new RegExp(`bytetoll_gateway_bytes_total\\{proxy_type="${type}"\\} (\\d+)`).exec(text)?.[1] ?? 0,
        );
      const [all] = await database.query<{ mobile: string; dc: string }>(
        "SELECT sum(bytes) FILTER (WHERE proxy_type = 'mobile') AS mobile, sum(bytes) FILTER (WHERE proxy_type = 'dc') AS dc FROM usage_rollups",
      );
      expect(bytes("mobile")).toBe(Number(all?.mobile));
      expect(bytes("dc")).toBe(Number(all?.dc));
      expect(text).toMatch(/bytetoll_gateway_flush_duration_seconds_count [1-9]/);
      expect(text).toContain('bytetoll_gateway_open_connections{listener="https"}');
      expect(text).toContain("bytetoll_gateway_open_tunnels");
    });

    it("billed what each process metered, and every worker metered some of it", async () => {
      const metered = await gateway.meteredByWorker();
      const [all] = await database.query<{ bytes: string }>("SELECT sum(bytes) AS bytes FROM usage_rollups");
      expect(metered.reduce((sum, bytes) => sum + bytes, 0)).toBe(Number(all?.bytes));
      expect(metered).toHaveLength(Math.max(1, mode.workers));
      // The workers were handed the connections above in turn.
      for (const bytes of metered) expect(bytes).toBeGreaterThan(0);
    });
  });
}
