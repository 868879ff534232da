import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { parseUpstream } from "@bytetoll/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import {
  basic,
  curl,
  eventually,
  getOver,
  openTunnel,
  rawExchange,
  type SeededUser,
  seedUser,
  startGateway,
  usageOf,
} from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";
import { startSocksProxy } from "./support/socks-proxy.ts";
import { startUpstreamProxy, type UpstreamProxy } from "./support/upstream-proxy.ts";

let database: TestDatabase;
let user: SeededUser;
let origin: TestOrigin;

const names: Record<string, string[]> = {
  localhost: ["127.0.0.1", "::1"],
  "internal.test": ["10.1.2.3"],
  "metadata.test": ["169.254.169.254"],
  "mixed.test": ["93.184.216.34", "10.0.0.7"],
  "v6private.test": ["fd00::1"],
  "mapped.test": ["::ffff:10.0.0.1"],
  "api.example.test": ["127.0.0.1"],
  "example.test": ["127.0.0.1"],
  "other.test": ["127.0.0.1"],
};
const resolveHost = async (host: string) => names[host] ?? [];

beforeAll(async () => {
  database = await createTestDatabase();
  user = await seedUser(database, 100_000_000);
  origin = await startOrigin();
});
afterAll(async () => {
  await origin.close();
  await database.close();
});

describe("egress guard", () => {
  let guarded: Gateway;
  beforeAll(async () => {
    guarded = await startGateway(database, { egressAllow: [], resolveHost });
  });
  afterAll(async () => {
    await guarded.close();
  });

  const bypasses = [
    "127.0.0.1",
    "2130706433",
    "0x7f000001",
    "0177.0.0.1",
    "127.1",
    "127.0.1",
    "0x7f.1",
    "0x7F.0.0.0x1",
    "017700000001",
    "127.0.0.1.",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "[0:0:0:0:0:ffff:127.0.0.1]",
    "[::127.0.0.1]",
    "[::]",
    "0",
    "0.0.0.0",
    "10.0.0.1",
    "0xa.0.0.1",
    "167772161",
    "172.16.0.1",
    "192.168.1.1",
    "3232235777",
    "169.254.169.254",
    "0xa9fea9fe",
    "2852039166",
    "100.64.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "[fc00::1]",
    "[fd12:3456::1]",
    "[fe80::1]",
    "[ff02::1]",
    "[64:ff9b::a00:1]",
    "[2002:a00:1::1]",
    "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
    "localhost",
    "LOCALHOST.",
    "internal.test",
    "metadata.test",
    "mixed.test",
    "v6private.test",
    "mapped.test",
  ];

  it.each(bypasses)("CONNECT %s is refused with 403", async (host) => {
    const auth = basic(user.username, user.password);
    const response = await rawExchange(
      guarded.httpPort,
      `CONNECT ${host}:${origin.port} HTTP/1.1\r\nHost: ${host}:${origin.port}\r\nProxy-Authorization: ${auth}\r\n\r\n`,
    );
    expect(response.status).toBe(403);
    expect(response.headers["x-bytetoll-error"]).toBe("destination_forbidden");
  });

  it.each(bypasses)("GET http://%s/ is refused with 403", async (host) => {
    const auth = basic(user.username, user.password);
    const response = await rawExchange(
      guarded.httpPort,
      `GET http://${host}:${origin.port}/ HTTP/1.1\r\nHost: ${host}\r\nProxy-Authorization: ${auth}\r\n\r\n`,
    );
    expect(response.status).toBe(403);
    expect(response.headers["x-bytetoll-error"]).toBe("destination_forbidden");
  });

  it("never checks destinations for clients without valid credentials", async () => {
    const response = await rawExchange(guarded.httpPort, "CONNECT 10.0.0.1:80 HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(response.status).toBe(407);
  });
});

describe("the gateway never connects to itself", () => {
  it("refuses its own listeners even where EGRESS_ALLOW opens loopback", async () => {
    const gateway = await startGateway(database, { resolveHost });
    try {
      const auth = basic(user.username, user.password);
      for (const target of [
        `127.0.0.1:${gateway.httpPort}`,
        `127.0.0.2:${gateway.httpsPort}`,
        `localhost:${gateway.metricsPort}`,
        `[::ffff:127.0.0.1]:${gateway.httpPort}`,
      ]) {
        const response = await rawExchange(
          gateway.httpPort,
          `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${auth}\r\n\r\n`,
        );
        expect(response.status, target).toBe(403);
      }
      const allowed = await rawExchange(
        gateway.httpPort,
        `GET http://127.0.0.1:${origin.port}/ HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${auth}\r\n\r\n`,
      );
      expect(allowed.status).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});

describe("a port-limited allowance (EGRESS_ALLOW_TARGETS)", () => {
  // Two loopback services: the one allowed by address AND port, and a neighbour (think PostgreSQL)
  // that must stay out of reach although it shares the address.
  let neighbour: TestOrigin;
  let gateway: Gateway;
  beforeAll(async () => {
    neighbour = await startOrigin();
    gateway = await startGateway(database, {
      egressAllow: [],
      egressAllowTargets: [
        { cidr: "127.0.0.1/32", port: origin.port },
        { cidr: "::1/128", port: origin.port },
      ],
      resolveHost,
    });
  });
  afterAll(async () => {
    await gateway.close();
    await neighbour.close();
  });
  const auth = () => basic(user.username, user.password);
  const plainGet = (authority: string) =>
    rawExchange(
      gateway.httpPort,
      `GET http://${authority}/ HTTP/1.1\r\nHost: ${authority}\r\nProxy-Authorization: ${auth()}\r\n\r\n`,
    );
  const connect = (authority: string) =>
    rawExchange(
      gateway.httpPort,
      `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\nProxy-Authorization: ${auth()}\r\n\r\n`,
    );

  it("carries plain HTTP and CONNECT to the allowed port", async () => {
    for (const host of ["127.0.0.1", "localhost"]) {
      const plain = await plainGet(`${host}:${origin.port}`);
      expect(plain.status, host).toBe(200);
      expect(plain.body).toContain("hello from origin");
      const tunnel = await openTunnel(gateway.httpPort, auth(), `${host}:${origin.port}`);
      try {
        await getOver(tunnel, "/bytes/10", 10);
      } finally {
        tunnel.destroy();
      }
    }
  });

  it("refuses another port on the same loopback address, via plain HTTP and CONNECT", async () => {
    // The neighbour does answer on loopback: only the guard stands between it and a customer.
    const direct = await rawExchange(neighbour.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(direct.status).toBe(200);
    const seen = neighbour.bytes();
    const port = neighbour.port;
    for (const authority of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `127.1:${port}`]) {
      for (const send of [plainGet, connect]) {
        const response = await send(authority);
        expect(response.status, authority).toBe(403);
        expect(response.headers["x-bytetoll-error"], authority).toBe("destination_forbidden");
      }
    }
    expect(neighbour.bytes()).toBe(seen);
  });

  it("opens that port on the listed range only", async () => {
    for (const authority of [`127.0.0.2:${origin.port}`, `[::ffff:127.0.0.1]:${origin.port}`]) {
      for (const send of [plainGet, connect]) {
        const response = await send(authority);
        expect(response.status, authority).toBe(403);
        expect(response.headers["x-bytetoll-error"], authority).toBe("destination_forbidden");
      }
    }
  });
});

describe("routing through upstream pools", () => {
  let mobileA: UpstreamProxy;
  let mobileB: UpstreamProxy;
  let datacenter: UpstreamProxy;
  let gateway: Gateway;
  beforeAll(async () => {
    mobileA = await startUpstreamProxy({ username: "up", password: "s3cret" });
    mobileB = await startUpstreamProxy();
    datacenter = await startUpstreamProxy();
    gateway = await startGateway(database, {
      resolveHost,
      mobileUpstreams: [parseUpstream(mobileA.url), parseUpstream(mobileB.url)],
      datacenterUpstreams: [parseUpstream(datacenter.url)],
    });
  });
  afterAll(async () => {
    await gateway.close();
    await Promise.all([mobileA.close(), mobileB.close(), datacenter.close()]);
  });
  const reset = () => {
    for (const proxy of [mobileA, mobileB, datacenter]) proxy.tunnels.length = 0;
  };
  const tunnelThrough = (username: string, host = "127.0.0.1") =>
    curl([
      "-p",
      "-x",
      `http://${username}:${user.password}@127.0.0.1:${gateway.httpPort}`,
      `http://${host}:${origin.port}/bytes/100`,
    ]);

  it("spreads requests without a session over the mobile pool, round-robin", async () => {
    reset();
    for (let i = 0; i < 4; i++) expect((await tunnelThrough(user.username)).status).toBe(200);
    expect(mobileA.tunnels.length).toBe(2);
    expect(mobileB.tunnels.length).toBe(2);
    expect(datacenter.tunnels.length).toBe(0);
  });

  it("keeps a sticky session on one upstream", async () => {
    for (const session of ["Aa000001", "Bb000002", "Cc000003", "Dd000004"]) {
      reset();
      for (let i = 0; i < 3; i++)
        expect((await tunnelThrough(`${user.username}-session-${session}`)).status).toBe(200);
      expect([mobileA.tunnels.length, mobileB.tunnels.length].sort()).toEqual([0, 3]);
    }
  });

  it("sends -routing-smart traffic over datacenter only for the user's datacenter domains", async () => {
    await database.query(
      "INSERT INTO routing_rules (user_id, rule, service) VALUES ($1, 'example.test', 'datacenter'), ($1, 'other.test', 'premium')",
      [user.userId],
    );
    reset();
    expect((await tunnelThrough(`${user.username}-routing-smart`, "api.example.test")).status).toBe(200);
    expect((await tunnelThrough(`${user.username}-routing-smart`, "example.test")).status).toBe(200);
    expect(datacenter.tunnels.length).toBe(2);
    expect((await tunnelThrough(`${user.username}-routing-smart`, "other.test")).status).toBe(200);
    expect((await tunnelThrough(user.username, "api.example.test")).status).toBe(200);
    expect(datacenter.tunnels.length).toBe(2);
    expect(mobileA.tunnels.length + mobileB.tunnels.length).toBe(2);
  });

  it("meters plain HTTP through an upstream exactly, without what only the upstream is sent", async () => {
    const chained = await seedUser(database, 10_000_000);
    const before = mobileA.plainBytes() + mobileB.plainBytes();
    const requestsToA = mobileA.requests.length;
    const plain = await curl([
      "-x",
      `http://${chained.username}:${chained.password}@127.0.0.1:${gateway.httpPort}`,
      `http://127.0.0.1:${origin.port}/bytes/5000`,
      `http://127.0.0.1:${origin.port}/echo`,
    ]);
    expect(plain.status).toBe(200);
    await eventually(async () => {
      await gateway.flush();
      const [row] = await usageOf(database, chained.userId);
      // Absolute form: the upstream is sent the scheme and authority, and its own account's
      // Proxy-Authorization (exit A has one), which are not billed.
      const authorization = `Proxy-Authorization: ${basic("up", "s3cret")}\r\n`.length;
      const proxyOnly =
        2 * `http://127.0.0.1:${origin.port}`.length +
        (mobileA.requests.length - requestsToA) * authorization;
      return row?.bytes === mobileA.plainBytes() + mobileB.plainBytes() - before - proxyOnly;
    }, "metered bytes to equal what the exit exchanged for the requests");
    const [row] = await usageOf(database, chained.userId);
    expect(row?.requests).toBe(2);
  });
});

describe("SOCKS5 upstreams", () => {
  it("tunnels plain HTTP and CONNECT through a SOCKS5 exit with credentials, metered exactly", async () => {
    const socks = await startSocksProxy("exit", "pw");
    const gateway = await startGateway(database, { mobileUpstreams: [parseUpstream(socks.url)] });
    try {
      const viaSocks = await seedUser(database, 10_000_000);
      const before = origin.bytes();
      const proxy = `http://${viaSocks.username}:${viaSocks.password}@127.0.0.1:${gateway.httpPort}`;
      const plain = await curl(["-x", proxy, `http://127.0.0.1:${origin.port}/bytes/3000`]);
      const tunnelled = await curl(["-p", "-x", proxy, `http://127.0.0.1:${origin.port}/bytes/4000`]);
      expect([plain.status, tunnelled.status]).toEqual([200, 200]);
      expect(socks.targets).toEqual([`127.0.0.1:${origin.port}`, `127.0.0.1:${origin.port}`]);
      await eventually(async () => {
        await gateway.flush();
        const [row] = await usageOf(database, viaSocks.userId);
        return row?.bytes === origin.bytes() - before;
      }, "metered bytes to equal the origin's count");
      const [row] = await usageOf(database, viaSocks.userId);
      expect(row?.requests).toBe(2);
    } finally {
      await gateway.close();
      await socks.close();
    }
  });
});
