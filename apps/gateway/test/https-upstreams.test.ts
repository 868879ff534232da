import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { loadGatewayConfig, parseUpstream } from "@bytetoll/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import {
  balanceOf,
  basic,
  curl,
  eventually,
  rawExchange,
  seedUser,
  startGateway,
  testCertificate,
  until,
  usageOf,
} from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";
import { createTestCa, type TestCa } from "./support/test-ca.ts";
import { startUpstreamProxy, type UpstreamProxy } from "./support/upstream-proxy.ts";

const exit = { username: "exit-user", password: "p@ss:word" };

let database: TestDatabase;
let origin: TestOrigin;
let secureOrigin: TestOrigin;
let ca: TestCa;
let caDir: string;
let caFile: string;

beforeAll(async () => {
  database = await createTestDatabase();
  origin = await startOrigin();
  secureOrigin = await startOrigin(await testCertificate());
  ca = await createTestCa();
  caDir = mkdtempSync(join(tmpdir(), "bytetoll-upstream-ca-"));
  caFile = join(caDir, "upstream-ca.pem");
  writeFileSync(caFile, ca.cert);
});
afterAll(async () => {
  await Promise.all([origin.close(), secureOrigin.close()]);
  await database.close();
  rmSync(caDir, { recursive: true, force: true });
});

/** An https:// exit on the private CA, and a gateway whose mobile pool is only that exit. */
async function withExit(
  certificate: { cert: string; key: string },
  gatewayEnv: Record<string, string>,
  fn: (exitProxy: UpstreamProxy, gateway: Gateway) => Promise<void>,
): Promise<void> {
  const exitProxy = await startUpstreamProxy(exit, certificate);
  const { mobileUpstreams } = loadGatewayConfig({ MOBILE_UPSTREAMS: exitProxy.url, ...gatewayEnv });
  const gateway = await startGateway(database, { mobileUpstreams });
  try {
    await fn(exitProxy, gateway);
  } finally {
    await gateway.close();
    await exitProxy.close();
  }
}

function plainGet(gateway: Gateway, authorization: string) {
  const target = `127.0.0.1:${origin.port}`;
  return rawExchange(
    gateway.httpPort,
    `GET http://${target}/bytes/100 HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${authorization}\r\n\r\n`,
  );
}

function connect(gateway: Gateway, authorization: string) {
  const target = `127.0.0.1:${origin.port}`;
  return rawExchange(
    gateway.httpPort,
    `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${authorization}\r\n\r\n`,
  );
}

describe("https:// upstreams", () => {
  it("carries plain HTTP and CONNECT through an exit on a private CA (UPSTREAM_CA_FILE), metered to the byte", async () => {
    const certificate = await ca.issue("DNS:localhost,IP:127.0.0.1");
    await withExit(certificate, { UPSTREAM_CA_FILE: caFile }, async (exitProxy, gateway) => {
      const user = await seedUser(database, 10_000_000);
      const secureBefore = secureOrigin.bytes();
      const proxy = `http://${user.username}:${user.password}@127.0.0.1:${gateway.httpPort}`;
      // Two plain requests on one client connection: the second reuses the kept-alive connection.
      const plain = await curl([
        "-x",
        proxy,
        `http://127.0.0.1:${origin.port}/bytes/2000000`,
        `http://127.0.0.1:${origin.port}/echo`,
        "-d",
        "x".repeat(3000),
      ]);
      expect(plain.status).toBe(200);
      // curl's status line (-w) follows the first transfer too.
      expect(plain.body.split("\n200").map((body) => body.length)).toEqual([2_000_000, 3000]);
      const tunnel = await curl([
        "-k",
        "-p",
        "-x",
        proxy,
        `https://127.0.0.1:${secureOrigin.port}/bytes/5000000`,
        "-o",
        "/dev/null",
      ]);
      expect(tunnel.status).toBe(200);
      await until(() => secureOrigin.openSockets() === 0, "the tunnel to close");

      // Plain HTTP goes to the exit in absolute form; only the https request is CONNECTed.
      expect(exitProxy.tunnels).toEqual([`127.0.0.1:${secureOrigin.port}`]);
      expect(exitProxy.requests).toEqual([
        `http://127.0.0.1:${origin.port}/bytes/2000000`,
        `http://127.0.0.1:${origin.port}/echo`,
      ]);
      expect(exitProxy.authorizations).toEqual(Array(3).fill(basic(exit.username, exit.password)));
      // What the exit was sent only as a proxy (scheme, authority, its Proxy-Authorization) is not billed.
      const proxyOnly =
        2 *
        (`http://127.0.0.1:${origin.port}`.length +
          `Proxy-Authorization: ${basic(exit.username, exit.password)}\r\n`.length);
      const billable = () => exitProxy.plainBytes() - proxyOnly + secureOrigin.bytes() - secureBefore;
      await eventually(async () => {
        await gateway.flush();
        const [row] = await usageOf(database, user.userId);
        return row?.bytes === billable();
      }, "metered bytes to equal what the exit and the https origin exchanged");
      expect(await usageOf(database, user.userId)).toEqual([
        { domain: "127.0.0.1", proxyType: "mobile", bytes: billable(), requests: 3 },
      ]);
      expect(exitProxy.splicedBytes()).toBe(secureOrigin.bytes() - secureBefore);
      const originBytes = billable;
      expect(originBytes()).toBeGreaterThan(7_000_000);
      expect(await balanceOf(database, user.userId)).toBe(10_000_000 - originBytes());
    });
  });

  it("refuses an exit whose certificate is not trusted with 502 and the reason, and bills nothing", async () => {
    const certificate = await ca.issue("DNS:localhost,IP:127.0.0.1");
    await withExit(certificate, {}, async (exitProxy, gateway) => {
      const user = await seedUser(database, 10_000_000);
      const auth = basic(user.username, user.password);
      for (const response of [await plainGet(gateway, auth), await connect(gateway, auth)]) {
        expect(response.status).toBe(502);
        expect(response.headers["x-bytetoll-error"]).toBe("upstream_failed");
        expect(JSON.parse(response.body)).toMatchObject({
          error: "upstream_failed",
          message: expect.stringMatching(
            /via https:\/\/localhost:\d+: unable to verify the first certificate/,
          ),
        });
      }
      expect(exitProxy.authorizations).toEqual([]);
      await gateway.flush();
      // Refused before any target connection: no request is counted and no byte billed.
      expect(await usageOf(database, user.userId)).toEqual([]);
      expect(await balanceOf(database, user.userId)).toBe(10_000_000);
    });
  });

  it("checks the exit's host name even when its CA is trusted", async () => {
    const certificate = await ca.issue("DNS:exit.elsewhere.test");
    await withExit(certificate, { UPSTREAM_CA_FILE: caFile }, async (exitProxy, gateway) => {
      const user = await seedUser(database, 10_000_000);
      const response = await connect(gateway, basic(user.username, user.password));
      expect(response.status).toBe(502);
      expect(response.headers["x-bytetoll-error"]).toBe("upstream_failed");
      expect(JSON.parse(response.body).message).toMatch(/Host: localhost\. is not in the cert's altnames/);
      expect(exitProxy.authorizations).toEqual([]);
      await gateway.flush();
      expect(await usageOf(database, user.userId)).toEqual([]);
    });
  });

  it("reaches an exit named by IP address when the certificate lists that address", async () => {
    const certificate = await ca.issue("IP:127.0.0.1");
    const exitProxy = await startUpstreamProxy(exit, certificate);
    const upstream = parseUpstream(
      `https://${exit.username}:${encodeURIComponent(exit.password)}@127.0.0.1:${exitProxy.port}`,
      { ca: ca.cert },
    );
    const gateway = await startGateway(database, { mobileUpstreams: [upstream] });
    try {
      const user = await seedUser(database, 10_000_000);
      const response = await curl([
        "-p",
        "-x",
        `http://${user.username}:${user.password}@127.0.0.1:${gateway.httpPort}`,
        `http://127.0.0.1:${origin.port}/bytes/100`,
      ]);
      expect(response.status).toBe(200);
      expect(exitProxy.tunnels).toEqual([`127.0.0.1:${origin.port}`]);
    } finally {
      await gateway.close();
      await exitProxy.close();
    }
  });
});
