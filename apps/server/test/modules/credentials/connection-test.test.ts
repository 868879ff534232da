import { networkInterfaces } from "node:os";
import { applyLedgerEntry } from "@bytetoll/db";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { loadGatewayConfig } from "@bytetoll/egress";
import { createGateway, type Gateway } from "@bytetoll/gateway";
import { freePort } from "@bytetoll/gateway/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app.ts";
import { planEmbeddedGateway } from "../../../src/embedded-gateway.ts";
import { createOutboxMailer } from "../../../src/plugins/mail.ts";
import type { App } from "../../../src/types.ts";
import { bearer, latestLinkToken } from "../../helpers/sign-in.ts";
import { testConfig } from "../../helpers/test-app.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

const hostAddresses = () =>
  Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address));

let database: TestDatabase;
let app: App;
let gateway: Gateway;

// The real arrangement of `npm start`: the API listening on loopback, its in-process gateway, and
// the default IPINFO_URL, which that gateway answers itself (it never dials the API).
beforeAll(async () => {
  database = await createTestDatabase();
  const apiPort = await freePort();
  const planned = planEmbeddedGateway(testConfig({ PORT: String(apiPort) }));
  gateway = createGateway({
    database,
    config: {
      ...loadGatewayConfig({}),
      host: "127.0.0.1",
      httpPort: 0,
      httpsPort: 0,
      metricsPort: null,
      egressAllowTargets: planned?.config.egressAllowTargets ?? [],
      processPorts: planned?.config.processPorts ?? [],
      socksPort: null,
      // Long enough that only the database's change feed can explain a rejected old password.
      cacheTtlMs: 60_000,
    },
    logger: pino({ level: "silent" }),
  });
  await gateway.listen();
  const config = testConfig({
    PORT: String(apiPort),
    REDIS_URL,
    GATEWAY_HOST: "proxy.example.test",
    GATEWAY_HTTP_PORT: String(gateway.httpPort),
    GATEWAY_SOCKS_PORT: "0",
    GATEWAY_HTTPS_PORT: String(gateway.httpsPort),
  });
  const mailer = createOutboxMailer(database, () => {});
  app = await buildApp({ config, database, mailer, logger: false, inProcessGatewayHost: "127.0.0.1" });
  await app.listen({ port: apiPort, host: "127.0.0.1" });
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await app?.close();
  await database?.close();
});

const test = (body: Record<string, unknown>) =>
  app.inject({
    method: "POST",
    url: "/credentials/test",
    payload: body,
    remoteAddress: `192.0.2.${1 + Math.floor(Math.random() * 250)}`,
  });

/** Tests credentials against the gateway on loopback, at its HTTP port unless told another. */
const testOnGateway = (username: string, password: string, port = gateway.httpPort) =>
  test({ username, password, proxy_host: "127.0.0.1", proxy_port: port });

/** A wrong password is refused as just that, whatever else is true of the account. */
async function expectWrongPasswordRefused(username: string, password: string) {
  const wrong = await testOnGateway(username, `${password}x`);
  expect(wrong.statusCode).toBe(422);
  expect(wrong.json()).toEqual({
    success: false,
    message: "The proxy rejected this username or password.",
  });
}

let addressSeq = 0;
/** Signs in from an address of its own: with REDIS_URL the per-IP sign-in limits live in Redis,
 * shared with every other run on this machine. */
async function signInFresh(email: string) {
  addressSeq += 1;
  const remoteAddress = `198.18.${Math.floor(Math.random() * 250)}.${addressSeq}`;
  const sent = await app.inject({ method: "POST", url: "/auth/login", payload: { email }, remoteAddress });
  expect(sent.statusCode).toBe(200);
  const verified = await app.inject({
    method: "POST",
    url: "/auth/magic/verify",
    payload: { access_token: await latestLinkToken(app, email) },
    remoteAddress,
  });
  expect(verified.statusCode).toBe(200);
  return verified.json().data as { token: string; id: string };
}

async function customer(email: string) {
  const session = await signInFresh(email);
  const credentials = (
    await app.inject({ method: "GET", url: "/credentials/latest", headers: bearer(session.token) })
  ).json().data as { username: string; password: string };
  return { ...session, ...credentials };
}

describe("POST /credentials/test through the real gateway", () => {
  it("fetches the IP information over 8080 and over 8443 and answers in SPEC's shape", async () => {
    const { username, password } = await customer("tester@example.com");
    for (const port of [gateway.httpPort, gateway.httpsPort]) {
      const response = await testOnGateway(username, password, port);
      expect(response.json()).toEqual({
        success: true,
        message: "Connected through the proxy.",
        data: {
          ip: expect.any(String),
          asn: { org_name: expect.stringMatching(/^(Private|Unknown) network$/) },
          country: "",
          geo: { city: "", region_name: "" },
        },
      });
      // A direct exit leaves from one of this host's own addresses.
      expect(hostAddresses()).toContain(response.json().data.ip);
    }
    // The configured public host name is accepted too (dialled in-process, no DNS needed).
    const viaName = await test({
      username,
      password,
      proxy_host: "PROXY.example.test",
      proxy_port: gateway.httpPort,
    });
    expect(viaName.statusCode).toBe(200);
  });

  it("passes the session and routing options of the username through", async () => {
    const { username, password } = await customer("options@example.com");
    const response = await test({
      username: `${username}-session-abcd1234-routing-smart`,
      password,
      proxy_host: "localhost",
      proxy_port: gateway.httpPort,
    });
    expect(response.statusCode).toBe(200);
  });

  it("reports the proxy's reason when it refuses", async () => {
    const { username, password, id } = await customer("broke@example.com");
    // Emptied before the gateway first looks this account up (it caches balances).
    await applyLedgerEntry(database.db, {
      userId: id,
      kind: "adjustment",
      reference: `test-empty:${id}`,
      deltaBytes: -1e9,
      note: "emptied for the test",
    });
    await expectWrongPasswordRefused(username, password);

    for (const port of [gateway.httpPort, gateway.httpsPort]) {
      const broke = await testOnGateway(username, password, port);
      expect(broke.statusCode).toBe(422);
      expect(broke.json()).toEqual({
        success: false,
        message: "Your balance is used up. Buy more data to continue.",
      });
    }
  });

  it("says an anonymous visitor's temporary credentials need an account, not that a balance is used up", async () => {
    const unique = await app.inject({
      method: "GET",
      url: "/credentials/unique",
      remoteAddress: `198.19.${Math.floor(Math.random() * 250)}.1`,
    });
    expect(unique.statusCode).toBe(200);
    const { username, password } = unique.json().data as { username: string; password: string };
    for (const [name, port] of [
      [username, gateway.httpPort],
      [username, gateway.httpsPort],
      [`${username}-session-abcd1234-routing-smart`, gateway.httpPort],
    ] as const) {
      const response = await testOnGateway(name, password, port);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        success: false,
        message:
          "These are temporary credentials: they carry traffic once you sign up (or sign in) with them. Sign up to get your free data, then test again.",
      });
    }
    // A wrong password for them is still just wrong.
    await expectWrongPasswordRefused(username, password);
  });

  it("says an account the operator disabled is disabled, not that the test site was refused", async () => {
    const { username, password, id } = await customer("disabled-tester@example.com");
    // Disabled before the gateway first looks this account up (it caches what it read).
    await database.query("UPDATE users SET disabled_at = now() WHERE id = $1", [id]);
    const response = await testOnGateway(username, password);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      success: false,
      message: "This account has been disabled by the operator. Contact support.",
    });
  });

  it("rejects the old password within seconds of a regeneration", async () => {
    const { username, password, token } = await customer("rotate-live@example.com");
    const target = { proxy_host: "127.0.0.1", proxy_port: gateway.httpPort };
    expect((await test({ username, password, ...target })).statusCode).toBe(200);

    const regenerated = await app.inject({
      method: "POST",
      url: "/credentials/regenerate",
      headers: bearer(token),
    });
    const fresh = regenerated.json().data.password as string;
    // Pub/sub delivery is asynchronous: poll, bounded well below the gateway's 60 s cache.
    const deadline = Date.now() + 5_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await test({ username, password, ...target })).statusCode;
    }
    expect(status).toBe(422);
    expect((await test({ username, password: fresh, ...target })).statusCode).toBe(200);
  });

  it("refuses any host or port other than the configured gateway", async () => {
    const { username, password } = await customer("scanner@example.com");
    const targets: Array<[string, unknown]> = [
      ["example.com", gateway.httpPort],
      ["10.0.0.1", gateway.httpPort],
      ["169.254.169.254", 80],
      ["127.0.0.1", 5432],
      ["localhost", 22],
      ["proxy.example.test", 6379],
      ["proxy.example.test.evil.com", gateway.httpPort],
      ["127.0.0.2", gateway.httpPort],
    ];
    for (const [proxy_host, proxy_port] of targets) {
      const response = await test({ username, password, proxy_host, proxy_port });
      expect(response.statusCode, `${proxy_host}:${proxy_port}`).toBe(400);
      expect(response.json()).toEqual({ success: false, message: "Proxy host or port is not allowed." });
    }
  });

  it("answers malformed input with a 400 that names the problem", async () => {
    const cases: Array<Record<string, unknown>> = [
      {},
      { username: "a", password: "b", proxy_host: "127.0.0.1" },
      { username: "a", password: "b", proxy_host: "127.0.0.1", proxy_port: "http" },
      { username: "a", password: "b", proxy_host: "127.0.0.1", proxy_port: 70000 },
      { username: "", password: "b", proxy_host: "127.0.0.1", proxy_port: gateway.httpPort },
      { username: "a", password: "b", proxy_host: "", proxy_port: gateway.httpPort },
    ];
    for (const body of cases) {
      const response = await test(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().success).toBe(false);
      expect(response.json().message).toEqual(expect.any(String));
    }
  });
});

describe("GET /ipinfo and GET /gateway", () => {
  it("tells a caller its own address in ipinfo.io's shape", async () => {
    const response = await app.inject({ method: "GET", url: "/ipinfo", remoteAddress: "8.8.4.4" });
    expect(response.json()).toMatchObject({ ip: "8.8.4.4", bogon: false });
  });

  it("describes the proxy server the page shows", async () => {
    const response = await app.inject({ method: "GET", url: "/gateway" });
    expect(response.json()).toEqual({
      success: true,
      data: {
        host: "proxy.example.test",
        ip: null,
        http_port: gateway.httpPort,
        https_port: gateway.httpsPort,
        socks_port: null,
      },
    });
  });
});
