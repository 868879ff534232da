import { randomInt } from "node:crypto";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { LOGIN_RATE_LIMITED } from "@bytetoll/contracts";
import { io } from "socket.io-client";
import { afterAll, describe, expect, it } from "vitest";
import { createEmbeddedGateway, planEmbeddedGateway } from "../src/embedded-gateway.ts";
import { createTestApp, type TestApp } from "./helpers/test-app.ts";

const apps: TestApp[] = [];
/** A differently configured app per test, all over the first one's database (a database each
 * would cost seconds per test and prove nothing more: these are settings of the listener). */
async function app(env: Record<string, string>, withMetrics = false): Promise<TestApp> {
  const created = await createTestApp(env, {
    database: apps[0]?.database,
    beforeReady: (built) => {
      if (!withMetrics) return;
      const plan = planEmbeddedGateway(built.config);
      if (plan) createEmbeddedGateway(plan, built, built.database);
    },
  });
  apps.push(created);
  return created;
}
afterAll(async () => {
  for (const created of apps.reverse()) await created.close();
});

const publicAddress = () => `198.51.100.${randomInt(1, 255)}`;
const PROXY = "10.0.0.5";

describe("TRUST_PROXY", () => {
  const ipinfo = (t: TestApp, remoteAddress: string, forwardedFor: string) =>
    t.app.inject({
      method: "GET",
      url: "/ipinfo",
      remoteAddress,
      headers: { "x-forwarded-for": forwardedFor },
    });

  it("with 1 hop takes the address the proxy added (right-most), not what the client wrote", async () => {
    const t = await app({ TRUST_PROXY: "1" });
    const response = await ipinfo(t, PROXY, "203.0.113.66, 198.51.100.7");
    expect(response.json().ip).toBe("198.51.100.7");
  });

  it("maps true to 1 hop", async () => {
    const t = await app({ TRUST_PROXY: "true" });
    expect((await ipinfo(t, PROXY, "203.0.113.66, 198.51.100.8")).json().ip).toBe("198.51.100.8");
  });

  it("with a list believes only the listed proxies", async () => {
    const t = await app({ TRUST_PROXY: "10.0.0.0/8,127.0.0.1" });
    expect((await ipinfo(t, PROXY, "203.0.113.66, 198.51.100.9")).json().ip).toBe("198.51.100.9");
    // A client that is not a listed proxy is taken at its socket address, whatever it writes.
    expect((await ipinfo(t, "198.51.100.10", "203.0.113.66")).json().ip).toBe("198.51.100.10");
  });

  it("keeps the per-IP login limit when the client rotates the left-most X-Forwarded-For entry", async () => {
    const t = await app({ TRUST_PROXY: "1" });
    const client = publicAddress();
    const login = (i: number) =>
      t.app.inject({
        method: "POST",
        url: "/auth/login",
        remoteAddress: PROXY,
        headers: { "x-forwarded-for": `203.0.113.${i % 250}, ${client}` },
        payload: { email: `spoof${i}@example.com` },
      });
    let refused = null;
    for (let i = 0; i < 40 && !refused; i++) {
      const response = await login(i);
      if (response.statusCode === 429) refused = response;
    }
    expect(refused?.json()).toEqual({ success: false, message: LOGIN_RATE_LIMITED });
  });
});

describe("/metrics", () => {
  const METRICS_TOKEN = "metrics-token-0123456789";
  const metrics = (t: TestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url: "/metrics", remoteAddress, headers });

  it("answers a client on this host", async () => {
    const t = await app({}, true);
    expect((await metrics(t, "127.0.0.1")).statusCode).toBe(200);
    expect((await metrics(t, "::1")).statusCode).toBe(200);
  });

  it("refuses anyone else without the token, and names the setting", async () => {
    const t = await app({ METRICS_TOKEN }, true);
    const refused = await metrics(t, "203.0.113.5");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain("METRICS_TOKEN");
    expect(
      (await metrics(t, "203.0.113.5", { authorization: "Bearer wrong-token-0123456789" })).statusCode,
    ).toBe(403);
    expect((await metrics(t, "203.0.113.5", { authorization: `Bearer ${METRICS_TOKEN}` })).statusCode).toBe(
      200,
    );
  });

  it("refuses a remote client that a reverse proxy on this host forwards", async () => {
    const t = await app({ TRUST_PROXY: "127.0.0.1" }, true);
    const forwarded = await metrics(t, "127.0.0.1", { "x-forwarded-for": "203.0.113.5" });
    expect(forwarded.statusCode).toBe(403);
  });
});

describe("connection limits of the API listener", () => {
  async function listening(env: Record<string, string>) {
    const t = await app(env);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    return (t.app.server.address() as AddressInfo).port;
  }

  /** A client that sends a request head one byte at a time; resolves with how long it was kept. */
  function slowHeaders(port: number, everyMs: number): Promise<number> {
    const started = Date.now();
    const head = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ";
    return new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1");
      let sent = 0;
      const timer = setInterval(() => {
        if (!socket.destroyed) socket.write(head[sent++ % head.length] ?? "a");
      }, everyMs);
      socket.on("error", () => {});
      socket.on("close", () => {
        clearInterval(timer);
        resolve(Date.now() - started);
      });
    });
  }

  it("cuts a client that trickles its headers at the headers deadline, and serves others meanwhile", async () => {
    const port = await listening({ HEADERS_TIMEOUT_MS: "1000", REQUEST_TIMEOUT_MS: "2000" });
    const slow = slowHeaders(port, 100);
    const meanwhile = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(meanwhile.status).toBe(200);
    const kept = await slow;
    expect(kept).toBeGreaterThanOrEqual(900);
    expect(kept).toBeLessThan(3_000);
  });

  it("closes a connection that never sends a request at the headers deadline", async () => {
    const port = await listening({ HEADERS_TIMEOUT_MS: "1000", REQUEST_TIMEOUT_MS: "2000" });
    const started = Date.now();
    const idle = connect(port, "127.0.0.1").resume();
    idle.on("error", () => {});
    await new Promise((resolve) => idle.once("close", resolve));
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("keeps a Socket.IO long-poll open beyond the deadline: it sent its request in time", async () => {
    const port = await listening({ HEADERS_TIMEOUT_MS: "1000", REQUEST_TIMEOUT_MS: "1000" });
    const socket = io(`http://127.0.0.1:${port}`, { transports: ["polling"], reconnection: false });
    const disconnected: string[] = [];
    socket.on("disconnect", (reason) => disconnected.push(reason));
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("connect_error", reject);
    });
    // The server cuts connections at their deadlines from a periodic check. An idle connection
    // (no request) is cut by that check once its deadline has passed; two in a row, the second
    // opened after the first was cut, mean the check ran past the deadline of the poll in flight.
    for (let round = 0; round < 2; round++) {
      const idle = connect(port, "127.0.0.1").resume();
      idle.on("error", () => {});
      await new Promise((resolve) => idle.once("close", resolve));
    }
    expect(disconnected).toEqual([]);
    expect(await socket.timeout(2_000).emitWithAck("subscribe", { channel: "deals" })).toEqual({ ok: true });
    socket.disconnect();
  });

  it("refuses connections beyond MAX_CONNECTIONS", async () => {
    const t = await app({ MAX_CONNECTIONS: "2", HEADERS_TIMEOUT_MS: "1000", REQUEST_TIMEOUT_MS: "1000" });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (t.app.server.address() as AddressInfo).port;
    const idle = [connect(port, "127.0.0.1"), connect(port, "127.0.0.1")];
    // The client's connect comes before the server has counted the connection: wait for its count.
    const serverConnections = () =>
      new Promise<number>((resolve, reject) =>
        t.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
    await expect.poll(serverConnections, { timeout: 5_000, interval: 10 }).toBe(2);
    const third = connect(port, "127.0.0.1");
    third.on("error", () => {});
    third.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
    const answer = await new Promise<string>((resolve) => {
      let received = "";
      third.on("data", (chunk) => {
        received += chunk.toString();
      });
      third.on("close", () => resolve(received));
    });
    expect(answer).toBe("");
    for (const socket of idle) socket.destroy();
  });
});
