import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { type Gateway, gatewayHost, Prober } from "@bytetoll/gateway";
import { freePort } from "@bytetoll/gateway/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { createEmbeddedGateway, planEmbeddedGateway } from "../src/embedded-gateway.ts";
import { createOutboxMailer } from "../src/plugins/mail.ts";
import type { App } from "../src/types.ts";
import { bearer, signIn } from "./helpers/sign-in.ts";
import { testConfig } from "./helpers/test-app.ts";

/** Writes `request`, reads one response head (bounded); the socket stays open for a tunnel. */
function exchange(socket: Socket, request: string): Promise<{ status: number; error: string | undefined }> {
  return new Promise((resolve, reject) => {
    let head = "";
    const onData = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) return;
      socket.removeListener("data", onData);
      socket.setTimeout(0);
      const error = /^x-bytetoll-error:\s*(\S+)/im.exec(head.slice(0, end))?.[1];
      resolve({ status: Number(head.split(" ")[1]), error });
    };
    socket.on("data", onData);
    socket.once("error", reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error(`no answer to ${request.split("\r\n")[0]}`)));
    socket.write(request);
  });
}

const FORBIDDEN = { status: 403, error: "destination_forbidden" };
/** What a customer would have come for: metrics, everyone's login links, a loopback address. */
const API_PATHS = ["/metrics", "/dev/outbox/messages", "/dev/outbox", "/ipinfo"];

/**
 * `npm start` as a careless operator might configure it: loopback opened to the gateway by
 * EGRESS_ALLOW and by EGRESS_ALLOW_TARGETS naming the API's port, and X-Forwarded-For believed
 * from one hop or from loopback. The API's port is still out of a customer's reach.
 */
describe.each(["1", "10.0.0.0/8,127.0.0.1"])("npm start with TRUST_PROXY=%s", (trustProxy) => {
  let database: TestDatabase;
  let app: App;
  let gateway: Gateway;
  let dataDir: string;
  let apiPort: number;
  let auth: string;
  /** TCP connections the API accepted: inject() opens none, so any is the gateway's. */
  let apiConnections = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), "bytetoll-self-dial-"));
    apiPort = await freePort();
    const config = testConfig({
      PORT: String(apiPort),
      DATA_DIR: dataDir,
      TRUST_PROXY: trustProxy,
      EGRESS_ALLOW: "127.0.0.0/8,::1/128",
      EGRESS_ALLOW_TARGETS: `127.0.0.1/32:${apiPort}`,
      GATEWAY_BIND: "127.0.0.1",
      GATEWAY_HTTP_PORT: String(await freePort()),
      GATEWAY_HTTPS_PORT: String(await freePort()),
      // A SOCKS5 listener of its own: it is one of the ports a customer must not reach either.
      GATEWAY_SOCKS_PORT: String(await freePort()),
      GATEWAY_METRICS_PORT: String(await freePort()),
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    });
    const plan = planEmbeddedGateway(config);
    if (!plan) throw new Error("the embedded gateway was not planned");
    const mailer = createOutboxMailer(database, () => {});
    app = await buildApp({
      config,
      database,
      mailer,
      logger: false,
      inProcessGatewayHost: plan.dialHost,
      gatewayHost,
    });
    // The gateway app's own object, seen by the server through its narrower HostedGateway.
    gateway = createEmbeddedGateway(plan, app, database) as Gateway;
    app.server.on("connection", () => {
      apiConnections += 1;
    });
    await app.listen({ port: apiPort, host: "127.0.0.1" });
    await gateway.listen();
    auth = await proxyAuthorization("customer@example.com");
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await gateway?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function proxyAuthorization(email: string): Promise<string> {
    const { username, password } = await credentials(email);
    return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  }
  async function credentials(email: string) {
    const session = await signIn(app, email);
    const latest = await app.inject({
      method: "GET",
      url: "/credentials/latest",
      headers: bearer(session.token),
    });
    return latest.json().data as { username: string; password: string };
  }

  /** One request through 8080 as a customer's raw client sends it: absolute form, or CONNECT and
   * then the request inside the tunnel. */
  async function viaProxy(authority: string, request: string, tunnel: boolean) {
    const socket = connect(gateway.httpPort, "127.0.0.1");
    try {
      if (!tunnel)
        return await exchange(
          socket,
          request
            .replace(" /", ` http://${authority}/`)
            .replace("\r\n", `\r\nProxy-Authorization: ${auth}\r\n`),
        );
      const opened = await exchange(
        socket,
        `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\nProxy-Authorization: ${auth}\r\n\r\n`,
      );
      return opened.status === 200 ? await exchange(socket, request) : opened;
    } finally {
      socket.destroy();
    }
  }
  const get = (authority: string, path: string, tunnel = false, extra = "") =>
    viaProxy(
      authority,
      `GET ${path} HTTP/1.1\r\nHost: ${authority}\r\n${extra}Connection: close\r\n\r\n`,
      tunnel,
    );

  it("refuses a customer the API's port on every loopback spelling, plain and CONNECT", async () => {
    const authorities = [
      "127.0.0.1",
      "localhost",
      "[::1]",
      "[::ffff:127.0.0.1]",
      "0.0.0.0",
      "2130706433",
    ].map((host) => `${host}:${apiPort}`);
    for (const authority of authorities) {
      for (const path of API_PATHS) {
        expect(await get(authority, path), `GET ${authority}${path}`).toEqual(FORBIDDEN);
        expect(await get(authority, path, true), `CONNECT ${authority} ${path}`).toEqual(FORBIDDEN);
      }
    }
    expect(apiConnections).toBe(0);
  });

  it("refuses a customer the gateway's own listeners too", async () => {
    const ports = [gateway.httpPort, gateway.httpsPort, gateway.socksPort ?? gateway.httpPort];
    for (const port of ports) {
      for (const host of ["127.0.0.1", "localhost"]) {
        expect(await get(`${host}:${port}`, "/"), `GET ${host}:${port}`).toEqual(FORBIDDEN);
        expect(await get(`${host}:${port}`, "/", true), `CONNECT ${host}:${port}`).toEqual(FORBIDDEN);
      }
    }
  });

  it("keeps the learner's prober, which fetches domains customers visited, off the API's port", async () => {
    const prober = new Prober(app.config.gateway);
    const probe = await prober.fetch("mobile", "http", "127.0.0.1", apiPort);
    expect(probe).toMatchObject({ status: null, error: expect.stringMatching(/gateway itself/) });
    expect(apiConnections).toBe(0);
  });

  it("keeps webhooks and the learner's prober off every port of the gateway: SOCKS5 and metrics too", async () => {
    const ports = [gateway.httpPort, gateway.httpsPort, gateway.socksPort, gateway.metricsPort, apiPort];
    expect(ports.every((port) => typeof port === "number" && port > 0)).toBe(true);
    const prober = new Prober(app.config.gateway);
    const { token } = await signIn(app, `hooks-${trustProxy.length}@example.com`);
    for (const port of ports as number[]) {
      const saved = await app.inject({
        method: "POST",
        url: "/webhooks",
        headers: bearer(token),
        payload: { url: `http://127.0.0.1:${port}/hook`, events: ["order.paid"] },
      });
      expect(saved.statusCode, `webhook to ${port}: ${saved.body}`).toBe(400);
      expect(saved.json().message).toMatch(/not allowed: .*gateway itself/);
      const probe = await prober.fetch("mobile", "http", "127.0.0.1", port);
      expect(probe, `probe of ${port}`).toMatchObject({
        status: null,
        error: expect.stringMatching(/gateway itself/),
      });
    }
  });

  it("never lets a customer's X-Forwarded-For reach the API, so no login link goes out for it", async () => {
    const email = `forged-${trustProxy.length}@example.com`;
    const body = JSON.stringify({ email });
    for (let i = 0; i < 25; i++) {
      const forged = await viaProxy(
        `127.0.0.1:${apiPort}`,
        `POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1:${apiPort}\r\nX-Forwarded-For: 203.0.113.${i}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        false,
      );
      expect(forged).toEqual(FORBIDDEN);
    }
    const outbox = await app.inject({
      method: "GET",
      url: `/dev/outbox/messages?to=${encodeURIComponent(email)}`,
    });
    expect(outbox.json().data).toEqual([]);
    expect(apiConnections).toBe(0);
  });

  it("keeps Test Connection working for others after 700 requests at the API through the proxy", async () => {
    const target = `127.0.0.1:${apiPort}`;
    const statuses = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const seen: number[] = [];
        for (let i = 0; i < 70; i++) seen.push((await get(target, "/ipinfo")).status);
        return seen;
      }),
    );
    expect(new Set(statuses.flat())).toEqual(new Set([403]));
    expect(apiConnections).toBe(0);

    const other = await credentials("other-customer@example.com");
    for (const port of [gateway.httpPort, gateway.httpsPort]) {
      const response = await app.inject({
        method: "POST",
        url: "/credentials/test",
        payload: { ...other, proxy_host: "127.0.0.1", proxy_port: port },
        remoteAddress: "198.51.100.23",
      });
      expect(response.statusCode, `port ${port}`).toBe(200);
      const { ip } = response.json().data as { ip: string };
      const hostAddresses = Object.values(networkInterfaces()).flatMap((list) =>
        (list ?? []).map((e) => e.address),
      );
      expect(hostAddresses).toContain(ip);
    }
    // The answer came from the gateway itself: the API was never dialled.
    expect(apiConnections).toBe(0);
  });
});
