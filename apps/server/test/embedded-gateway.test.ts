import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { type Gateway, gatewayHost } from "@bytetoll/gateway";
import { freePort } from "@bytetoll/gateway/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { createEmbeddedGateway, planEmbeddedGateway } from "../src/embedded-gateway.ts";
import { createOutboxMailer } from "../src/plugins/mail.ts";
import type { App } from "../src/types.ts";
import { bearer, signIn } from "./helpers/sign-in.ts";
import { testConfig } from "./helpers/test-app.ts";

describe("the gateway npm start runs in the same process", () => {
  it("is not started when GATEWAY_DISABLED=true", () => {
    const env = { GATEWAY_DISABLED: "true" };
    expect(planEmbeddedGateway(testConfig(env))).toBeNull();
  });

  it("makes the API's port one of the gateway's own and opens nothing on loopback for Test Connection", () => {
    const env = { PORT: "3123" };
    const builtIn = planEmbeddedGateway(testConfig(env));
    expect(builtIn?.config.egressAllow).toEqual([]);
    expect(builtIn?.config.egressAllowTargets).toEqual([]);
    expect(builtIn?.config.processPorts).toEqual([3123]);
    expect(builtIn?.dialHost).toBe("127.0.0.1");
    expect(builtIn?.config.metricsPort).toBeNull();

    const external = {
      PORT: "3124",
      IPINFO_URL: "https://ipinfo.io/json",
      EGRESS_ALLOW: "192.0.2.0/24",
      EGRESS_ALLOW_TARGETS: "10.0.0.5/32:8000",
      GATEWAY_BIND: "10.1.2.3",
    };
    const plan = planEmbeddedGateway(testConfig(external));
    expect(plan?.config.egressAllow).toEqual(["192.0.2.0/24"]);
    expect(plan?.config.egressAllowTargets).toEqual([{ cidr: "10.0.0.5/32", port: 8000 }]);
    expect(plan?.config.processPorts).toEqual([3124]);
    expect(plan?.dialHost).toBe("10.1.2.3");
  });

  it("takes the gateway's settings from the parsed configuration, not from process.env", () => {
    const env = {
      GATEWAY_BIND: "127.0.0.2",
      GATEWAY_METRICS_PORT: "9555",
      GATEWAY_MAX_CONNECTIONS: "7",
      GATEWAY_HEAD_TIMEOUT_MS: "900",
      DC_PRICE_PER_GB_USD: "0.5",
    };
    expect(planEmbeddedGateway(testConfig(env))?.config).toMatchObject({
      host: "127.0.0.2",
      metricsPort: 9555,
      maxConnections: 7,
      headTimeoutMs: 900,
      dcPricePerGbUsd: 0.5,
    });
  });

  it("keeps its usage journal in DATA_DIR, the default one included, on either database", () => {
    const envs: Record<string, string>[] = [{}, { DATABASE_URL: "postgres://db.example/bytetoll" }];
    for (const env of envs) {
      const config = testConfig(env);
      expect(planEmbeddedGateway(config)?.config.stateDir).toBe(config.DATA_DIR);
    }
  });

  it("uses the configured ports", () => {
    const env = { GATEWAY_HTTP_PORT: "18080", GATEWAY_HTTPS_PORT: "18443" };
    const plan = planEmbeddedGateway(testConfig(env));
    expect([plan?.config.httpPort, plan?.config.httpsPort]).toEqual([18080, 18443]);
  });
});

/** Writes `request` and reads one response head (bounded); the socket stays open for a tunnel. */
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

describe("the embedded gateway and loopback, end to end", () => {
  let database: TestDatabase;
  let app: App;
  let gateway: Gateway;
  let dataDir: string;
  let apiPort: number;
  // Stands for PostgreSQL, Redis or any other service listening on loopback beside the API.
  let neighbour: Server;
  let neighbourPort: number;
  let neighbourHits = 0;
  let auth: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), "bytetoll-embedded-"));
    neighbour = createHttpServer((_req, res) => {
      neighbourHits += 1;
      res.end("secret");
    });
    await new Promise<void>((resolve) => neighbour.listen(0, "127.0.0.1", resolve));
    neighbourPort = (neighbour.address() as AddressInfo).port;
    apiPort = await freePort();
    const env = {
      PORT: String(apiPort),
      DATA_DIR: dataDir,
      GATEWAY_BIND: "127.0.0.1",
      GATEWAY_HTTP_PORT: String(await freePort()),
      GATEWAY_SOCKS_PORT: "0",
      GATEWAY_HTTPS_PORT: String(await freePort()),
    };
    const config = testConfig(env);
    const plan = planEmbeddedGateway(config);
    if (!plan) throw new Error("the embedded gateway was not planned");
    app = await buildApp({
      config,
      database,
      mailer: createOutboxMailer(database, () => {}),
      logger: false,
      inProcessGatewayHost: plan.dialHost,
      gatewayHost,
    });
    // The gateway app's own object, seen by the server through its narrower HostedGateway.
    gateway = createEmbeddedGateway(plan, app, database) as Gateway;
    await app.listen({ port: apiPort, host: "127.0.0.1" });
    await gateway.listen();
    const session = await signIn(app, "embedded@example.com");
    const latest = await app.inject({
      method: "GET",
      url: "/credentials/latest",
      headers: bearer(session.token),
    });
    const { username, password } = latest.json().data as { username: string; password: string };
    auth = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await gateway?.close();
    await new Promise((resolve) => neighbour?.close(resolve));
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const viaGateway = () => connect(gateway.httpPort, "127.0.0.1");
  const plainGet = async (authority: string, path: string) => {
    const socket = viaGateway();
    try {
      return await exchange(
        socket,
        `GET http://${authority}${path} HTTP/1.1\r\nHost: ${authority}\r\nProxy-Authorization: ${auth}\r\nConnection: close\r\n\r\n`,
      );
    } finally {
      socket.destroy();
    }
  };
  /** CONNECT, then (when the tunnel opened) a GET inside it; returns both answers. */
  const tunnelGet = async (authority: string, path: string) => {
    const socket = viaGateway();
    try {
      const opened = await exchange(
        socket,
        `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\nProxy-Authorization: ${auth}\r\n\r\n`,
      );
      if (opened.status !== 200) return { opened, inner: null };
      const inner = await exchange(
        socket,
        `GET ${path} HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`,
      );
      return { opened, inner };
    } finally {
      socket.destroy();
    }
  };

  it("runs POST /credentials/test without dialling the API: the gateway tells its exit address", async () => {
    const { username, password } = (
      await app.inject({
        method: "GET",
        url: "/credentials/latest",
        headers: bearer((await signIn(app, "tester-embedded@example.com")).token),
      })
    ).json().data as { username: string; password: string };
    const hostAddresses = Object.values(networkInterfaces()).flatMap((list) =>
      (list ?? []).map((entry) => entry.address),
    );
    for (const port of [gateway.httpPort, gateway.httpsPort]) {
      const response = await app.inject({
        method: "POST",
        url: "/credentials/test",
        payload: { username, password, proxy_host: "127.0.0.1", proxy_port: port },
      });
      expect(response.json(), `port ${port}`).toMatchObject({ success: true });
      expect(hostAddresses).toContain(response.json().data.ip);
    }
  });

  it("refuses plain HTTP and CONNECT to the API's own port with 403 destination_forbidden", async () => {
    for (const authority of [`127.0.0.1:${apiPort}`, `localhost:${apiPort}`]) {
      expect(await plainGet(authority, "/ipinfo"), authority).toEqual({
        status: 403,
        error: "destination_forbidden",
      });
      const tunnelled = await tunnelGet(authority, "/ipinfo");
      expect(tunnelled.opened, authority).toEqual({ status: 403, error: "destination_forbidden" });
    }
  });

  it("refuses any other loopback port with 403 destination_forbidden, plain and CONNECT", async () => {
    // Reachable directly, so only the gateway's guard keeps customers away from it.
    expect((await fetch(`http://127.0.0.1:${neighbourPort}/`)).status).toBe(200);
    const hitsBefore = neighbourHits;
    for (const authority of [
      `127.0.0.1:${neighbourPort}`,
      `localhost:${neighbourPort}`,
      `[::1]:${neighbourPort}`,
    ]) {
      const plain = await plainGet(authority, "/");
      expect(plain, `GET via ${authority}`).toEqual({ status: 403, error: "destination_forbidden" });
      const { opened } = await tunnelGet(authority, "/");
      expect(opened, `CONNECT ${authority}`).toEqual({ status: 403, error: "destination_forbidden" });
    }
    expect(neighbourHits).toBe(hitsBefore);
  });
});
