import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { parseUpstream } from "@bytetoll/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import {
  basic,
  curl,
  rawExchange,
  type SeededUser,
  seedUser,
  startGateway,
  usageOf,
} from "./support/harness.ts";
import { randomBody, startOrigin, type TestOrigin } from "./support/origin.ts";
import { createTestCa, type TestCa } from "./support/test-ca.ts";
import { startUpstreamProxy, type UpstreamProxy } from "./support/upstream-proxy.ts";

let database: TestDatabase;
let ca: TestCa;
let site: TestOrigin;
let gateway: Gateway;
let user: SeededUser;

beforeAll(async () => {
  database = await createTestDatabase();
  ca = await createTestCa();
  site = await startOrigin(await ca.issue("DNS:localhost,IP:127.0.0.1"));
  gateway = await startGateway(database, { originCa: ca.cert });
  user = await seedUser(database, 1_000_000_000);
});
afterAll(async () => {
  await gateway.close();
  await site.close();
  await database.close();
});

const auth = () => `Proxy-Authorization: ${basic(user.username, user.password)}\r\n`;

/** What the site and the account's usage say once every byte is flushed. */
async function billed(userId: string): Promise<number> {
  await gateway.flush();
  return (await usageOf(database, userId)).reduce((sum, row) => sum + row.bytes, 0);
}

describe("GET https://… in absolute form, as squid takes it", () => {
  it("speaks TLS to the site itself and relays the body byte-exact, billed as the site saw it", async () => {
    const buyer = await seedUser(database, 1_000_000_000);
    const before = site.bytes();
    const response = await fetchRaw(
      `GET https://localhost:${site.port}/random/1000000 HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(buyer.username, buyer.password)}\r\nConnection: close\r\n\r\n`,
    );
    const end = response.indexOf("\r\n\r\n");
    expect(response.subarray(0, end).toString()).toMatch(/^HTTP\/1\.1 200 /);
    expect(response.subarray(end + 4).equals(randomBody(1_000_000))).toBe(true);
    // The TLS records and handshake the site exchanged are what is billed, as for CONNECT.
    expect(await billed(buyer.userId)).toBe(site.bytes() - before);
  });

  it("serves curl told to send the https:// URL to the proxy as its request target", async () => {
    const answer = await curl([
      "-x",
      `http://${user.username}:${user.password}@127.0.0.1:${gateway.httpPort}`,
      "--request-target",
      `https://localhost:${site.port}/`,
      `http://localhost:${site.port}/`,
    ]);
    expect(answer).toEqual({ status: 200, body: "hello from origin\n" });
  });

  it("switches protocols on wss:// (the 101 becomes a tunnel over the gateway's TLS)", async () => {
    const echoed = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(gateway.httpPort, "127.0.0.1", () =>
        socket.write(
          `GET wss://localhost:${site.port}/ HTTP/1.1\r\nHost: x\r\n${auth()}Connection: Upgrade\r\nUpgrade: echo\r\n\r\n`,
        ),
      );
      let data = "";
      socket.on("data", (chunk: Buffer) => {
        data += chunk.toString("latin1");
        if (data.includes("\r\n\r\n") && !data.includes("ping")) socket.write("ping");
        if (data.endsWith("ping")) {
          socket.destroy();
          resolve(data);
        }
      });
      socket.on("error", reject);
    });
    expect(echoed).toMatch(/^HTTP\/1\.1 101 /);
    expect(echoed.endsWith("\r\n\r\nping")).toBe(true);
  });

  it("refuses a site whose certificate it cannot verify with a 502 that says so, billing nothing", async () => {
    const strict = await startGateway(database);
    try {
      const buyer = await seedUser(database, 1_000_000);
      const answer = await rawExchange(
        strict.httpPort,
        `GET https://127.0.0.1:${site.port}/ HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(buyer.username, buyer.password)}\r\n\r\n`,
      );
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.body).message).toMatch(/^TLS to 127\.0\.0\.1 failed: /);
      await strict.flush();
      expect(await usageOf(database, buyer.userId)).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it("goes through an http:// exit by CONNECT, never in absolute form", async () => {
    const exit: UpstreamProxy = await startUpstreamProxy();
    const routed = await startGateway(database, {
      originCa: ca.cert,
      mobileUpstreams: [parseUpstream(exit.url)],
    });
    try {
      const answer = await rawExchange(
        routed.httpPort,
        `GET https://127.0.0.1:${site.port}/ HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toContain("hello from origin\n");
      expect(exit.tunnels).toEqual([`127.0.0.1:${site.port}`]);
      expect(exit.requests).toEqual([]);
    } finally {
      await routed.close();
      await exit.close();
    }
  });
});

/** Everything the gateway sends until it closes. */
function fetchRaw(request: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(gateway.httpPort, "127.0.0.1", () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks)));
  });
}
