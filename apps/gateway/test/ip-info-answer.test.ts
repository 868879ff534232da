import { networkInterfaces } from "node:os";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { IP_INFO_HOST, parseUpstream } from "@bytetoll/egress";
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
import { startUpstreamProxy, type UpstreamProxy } from "./support/upstream-proxy.ts";

let database: TestDatabase;
let user: SeededUser;
let gateway: Gateway;

/** Every address of this host: the one a direct exit leaves from is one of them. */
const hostAddresses = () =>
  Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((entry) => entry.address);

beforeAll(async () => {
  database = await createTestDatabase();
  user = await seedUser(database, 100_000_000);
  // No loopback allowance: the answer needs none, and nothing on this host is opened for it.
  gateway = await startGateway(database, { egressAllow: [], resolveHost: async () => [] });
});
afterAll(async () => {
  await gateway?.close();
  await database?.close();
});

const proxy = () => `http://${user.username}:${user.password}@127.0.0.1:${gateway.httpPort}`;

describe(`${IP_INFO_HOST}, answered by the gateway itself`, () => {
  it("tells a customer, plain or tunnelled, the address direct traffic leaves from", async () => {
    for (const tunnel of [[], ["-p"]]) {
      const answer = await curl([...tunnel, "-x", proxy(), `http://${IP_INFO_HOST}/json`]);
      expect(answer.status, tunnel.join(" ")).toBe(200);
      const body = JSON.parse(answer.body) as { ip: string; bogon: boolean; org: string };
      expect(hostAddresses()).toContain(body.ip);
      expect(body).toMatchObject({ country: "", region: "", city: "" });
      expect(body.org).toBe(body.bogon ? "Private network" : "Unknown network");
    }
  });

  it("is traffic like any other: it needs credentials and is billed to the domain", async () => {
    const anonymous = await rawExchange(
      gateway.httpPort,
      `GET http://${IP_INFO_HOST}/ HTTP/1.1\r\nHost: ${IP_INFO_HOST}\r\nConnection: close\r\n\r\n`,
    );
    expect(anonymous.status).toBe(407);
    await gateway.flush();
    const rows = await usageOf(database, user.userId);
    expect(rows.find((row) => row.domain === IP_INFO_HOST)?.bytes).toBeGreaterThan(100);
  });

  it("is only a name on port 80", async () => {
    const answer = await rawExchange(
      gateway.httpPort,
      `GET http://${IP_INFO_HOST}:8080/ HTTP/1.1\r\nHost: ${IP_INFO_HOST}:8080\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(502);
  });
});

describe(`${IP_INFO_HOST} behind an upstream pool`, () => {
  let upstream: UpstreamProxy;
  let chained: Gateway;
  beforeAll(async () => {
    upstream = await startUpstreamProxy();
    chained = await startGateway(database, { mobileUpstreams: [parseUpstream(upstream.url)] });
  });
  afterAll(async () => {
    await chained?.close();
    await upstream?.close();
  });

  it("is refused rather than answered with an address the traffic does not leave from", async () => {
    const answer = await rawExchange(
      chained.httpPort,
      `GET http://${IP_INFO_HOST}/ HTTP/1.1\r\nHost: ${IP_INFO_HOST}\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(502);
    expect(answer.headers["x-bytetoll-error"]).toBe("upstream_failed");
    expect(upstream.tunnels).toEqual([]);
  });
});
