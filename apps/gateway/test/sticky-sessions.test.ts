import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { parseUpstream } from "@bytetoll/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { basic, rawExchange, type SeededUser, seedUser, startGateway } from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";
import { startUpstreamProxy, type UpstreamProxy } from "./support/upstream-proxy.ts";

let database: TestDatabase;
let exits: UpstreamProxy[];
let gateways: Gateway[];
let origin: TestOrigin;
let user: SeededUser;

beforeAll(async () => {
  database = await createTestDatabase();
  origin = await startOrigin();
  exits = await Promise.all([startUpstreamProxy(), startUpstreamProxy(), startUpstreamProxy()]);
  // Two instances on one database, as behind a load balancer: nothing but the hashing ties them.
  const config = { mobileUpstreams: exits.map((exit) => parseUpstream(`${exit.url}?country=us`)) };
  const health = { upstreamHealth: { downAfterFailures: 1, firstRetryMs: 600_000 } };
  gateways = [
    await startGateway(database, config, undefined, health),
    await startGateway(database, config, undefined, health),
  ];
  user = await seedUser(database, 100_000_000);
}, 30_000);
afterAll(async () => {
  for (const gateway of gateways ?? []) await gateway.close();
  for (const exit of exits ?? []) await exit.close();
  await origin?.close();
  await database?.close();
});

const target = () => `127.0.0.1:${origin.port}`;

function get(gateway: Gateway, username: string) {
  return rawExchange(
    gateway.httpPort,
    `GET http://${target()}/bytes/10 HTTP/1.1\r\nHost: ${target()}\r\nProxy-Authorization: ${basic(username, user.password)}\r\n\r\n`,
  );
}

/** The head of the answer to a CONNECT (the tunnel is closed at once). */
function connectHead(gateway: Gateway, username: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(gateway.httpPort, "127.0.0.1");
    let head = "";
    socket.on("data", (chunk: Buffer) => {
      head += chunk.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      socket.destroy();
      resolve(head.slice(0, head.indexOf("\r\n\r\n")));
    });
    socket.on("error", reject);
    socket.write(
      `CONNECT ${target()} HTTP/1.1\r\nHost: ${target()}\r\nProxy-Authorization: ${basic(username, user.password)}\r\n\r\n`,
    );
  });
}

/** Which exit carried the next plain request through `gateway`. */
async function exitOf(gateway: Gateway, username: string): Promise<{ exit: number; moved: boolean }> {
  const before = exits.map((exit) => exit.requests.length);
  const response = await get(gateway, username);
  expect(response.status, username).toBe(200);
  const used = exits.findIndex((exit, i) => exit.requests.length > (before[i] as number));
  return { exit: used, moved: response.headers["x-bytetoll-session-moved"] === "1" };
}

describe("sticky sessions", () => {
  it("pick the same exit on every instance, and spread sessions over the exits", async () => {
    const used = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const username = `${user.username}-session-s${i}-country-us`;
      const first = await exitOf(gateways[0] as Gateway, username);
      for (let round = 0; round < 2; round++) {
        expect(await exitOf(gateways[1] as Gateway, username)).toEqual({ exit: first.exit, moved: false });
        expect(await exitOf(gateways[0] as Gateway, username)).toEqual({ exit: first.exit, moved: false });
      }
      used.add(first.exit);
    }
    expect(used.size).toBeGreaterThan(1);
  });

  it("move when their exit goes down, say so, and land on the same new exit on every instance", async () => {
    const username = `${user.username}-session-mover-sesstime-30`;
    const { exit: original } = await exitOf(gateways[0] as Gateway, username);
    await (exits[original] as UpstreamProxy).close();
    for (const gateway of gateways) {
      // The first request finds the exit gone (and marks it down); the session then moves.
      expect((await get(gateway, username)).status).toBe(502);
    }
    const moved = await exitOf(gateways[0] as Gateway, username);
    expect(moved.exit).not.toBe(original);
    expect(moved.moved).toBe(true);
    expect(await exitOf(gateways[1] as Gateway, username)).toEqual(moved);
    expect(await connectHead(gateways[1] as Gateway, username)).toMatch(
      /^HTTP\/1\.1 200 [^\r]*\r\nX-ByteToll-Session-Moved: 1$/,
    );
    // A session whose exit is up is not told anything.
    let steady = 0;
    while ((await exitOf(gateways[0] as Gateway, `${user.username}-session-steady${steady}`)).moved) steady++;
    expect(await connectHead(gateways[1] as Gateway, `${user.username}-session-steady${steady}`)).toBe(
      "HTTP/1.1 200 Connection Established",
    );
  });
});
