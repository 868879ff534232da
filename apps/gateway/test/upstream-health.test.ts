import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { parseUpstream } from "@bytetoll/egress";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import {
  basic,
  eventually,
  type SeededUser,
  seedUser,
  silentLogger,
  startGateway,
} from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";
import { waitFor } from "./support/raw-client.ts";
import { startUpstreamProxy, type UpstreamProxy } from "./support/upstream-proxy.ts";

/** Long enough for the checks made while the exit is down to finish before its first retry. */
const RETRY_MS = 2_000;
const HEARTBEAT_MS = 150;

let database: TestDatabase;
let origin: TestOrigin;
let user: SeededUser;

beforeAll(async () => {
  database = await createTestDatabase();
  origin = await startOrigin();
  user = await seedUser(database, 100_000_000);
});
afterAll(async () => {
  await origin.close();
  await database.close();
});

/** Opens a CONNECT tunnel through the gateway and says how the gateway answered. */
function connectThrough(
  gateway: Gateway,
  username = user.username,
): Promise<{ status: number; error?: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(gateway.httpPort, "127.0.0.1");
    let head = "";
    socket.on("data", (chunk: Buffer) => {
      head += chunk.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      socket.destroy();
      const error = /x-bytetoll-error: (\S+)/i.exec(head)?.[1];
      resolve({ status: Number(head.split(" ")[1]), ...(error ? { error } : {}) });
    });
    socket.on("error", reject);
    socket.write(
      `CONNECT 127.0.0.1:${origin.port} HTTP/1.1\r\nProxy-Authorization: ${basic(username, user.password)}\r\n\r\n`,
    );
  });
}

async function startWithExits(exits: UpstreamProxy[]): Promise<Gateway> {
  return startGateway(
    database,
    { mobileUpstreams: exits.map((exit) => parseUpstream(exit.url)) },
    silentLogger,
    { heartbeatMs: HEARTBEAT_MS, upstreamHealth: { firstRetryMs: RETRY_MS, maxRetryMs: 4 * RETRY_MS } },
  );
}

interface StatsRow {
  upstream_id: string;
  attempts: string;
  failures: string;
  connect_ms_buckets: (string | number)[];
}

async function statsOf(exit: UpstreamProxy) {
  const rows = await database.query<StatsRow>(
    "SELECT upstream_id, attempts, failures, connect_ms_buckets FROM upstream_stats WHERE upstream_id = $1",
    [parseUpstream(exit.url).id],
  );
  return {
    attempts: rows.reduce((sum, row) => sum + Number(row.attempts), 0),
    failures: rows.reduce((sum, row) => sum + Number(row.failures), 0),
    timed: rows.reduce(
      (sum, row) => sum + row.connect_ms_buckets.reduce<number>((a, b) => a + Number(b), 0),
      0,
    ),
  };
}

async function downOnHeartbeat(exit: UpstreamProxy): Promise<boolean | undefined> {
  const rows = await database.query<{ upstreams: { pool: string; id: string; down: boolean }[] }>(
    "SELECT upstreams FROM gateway_instances WHERE updated_at > now() - interval '1 minute'",
  );
  const id = parseUpstream(exit.url).id;
  return rows.flatMap((row) => row.upstreams).find((entry) => entry.id === id)?.down;
}

/** The head a sticky session's CONNECT gets, and which exit carried the tunnel (-1: none). */
async function sessionTunnel(gateway: Gateway, session: string, exits: UpstreamProxy[]) {
  const before = exits.map((exit) => exit.tunnels.length);
  const head = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(gateway.httpPort, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      if (!received.includes("\r\n\r\n")) return;
      socket.destroy();
      resolve(received.slice(0, received.indexOf("\r\n\r\n")));
    });
    socket.on("error", reject);
    socket.write(
      `CONNECT 127.0.0.1:${origin.port} HTTP/1.1\r\nProxy-Authorization: ${basic(`${user.username}-session-${session}`, user.password)}\r\n\r\n`,
    );
  });
  await waitFor(
    () =>
      !head.startsWith("HTTP/1.1 200") ||
      exits.some((exit, i) => exit.tunnels.length > (before[i] as number)),
    "the exit to see the tunnel",
  );
  return { head, exit: exits.findIndex((exit, i) => exit.tunnels.length > (before[i] as number)) };
}

describe("upstream health", () => {
  it("marks a failing exit down, skips it (sticky sessions too), retries it after a back-off and takes it back once it answers", async () => {
    const a = await startUpstreamProxy();
    let b = await startUpstreamProxy();
    const gateway = await startWithExits([a, b]);
    try {
      // Round robin uses both exits.
      for (let i = 0; i < 4; i++) expect((await connectThrough(gateway)).status).toBe(200);
      expect(a.tunnels.length).toBe(2);
      expect(b.tunnels.length).toBe(2);

      const bPort = b.port;
      await b.close();
      // Every second tunnel goes to the dead exit until its third failure in a row marks it down.
      const answers: number[] = [];
      for (let i = 0; i < 8; i++) answers.push((await connectThrough(gateway)).status);
      expect(answers.filter((status) => status === 502)).toHaveLength(3);
      expect(answers.slice(-2)).toEqual([200, 200]);
      await eventually(
        async () => (await downOnHeartbeat(b)) === true,
        "the heartbeat to show the exit down",
      );
      // Sticky sessions re-hash over the exits that are up: every session id gets through.
      for (const session of ["aaaaaaaa", "bbbbbbbb", "cccccccc", "dddddddd", "eeeeeeee"]) {
        expect((await connectThrough(gateway, `${user.username}-session-${session}`)).status).toBe(200);
      }

      const downAt = Date.now();
      b = await startUpstreamProxy(undefined, undefined, bPort);
      // Up again, but skipped until its back-off is over.
      for (let i = 0; i < 2; i++) expect((await connectThrough(gateway)).status).toBe(200);
      expect(b.tunnels).toHaveLength(0);
      await new Promise((r) => setTimeout(r, Math.max(0, downAt + RETRY_MS + 50 - Date.now())));
      // The next pick starts the retry (a connection to the exit, not this customer's tunnel);
      // once it got through, round robin uses the exit again.
      expect((await connectThrough(gateway)).status).toBe(200);
      await eventually(async () => (await downOnHeartbeat(b)) === false, "the heartbeat to show the exit up");
      for (let i = 0; i < 4; i++) expect((await connectThrough(gateway)).status).toBe(200);
      expect(b.tunnels).toHaveLength(2);
      await eventually(async () => {
        const figures = await statsOf(b);
        return figures.failures === 3 && figures.attempts === 2 + 3 + 2;
      }, "the exit's failures to be saved");
      const figures = await statsOf(a);
      expect(figures.failures).toBe(0);
      expect(figures.timed).toBe(figures.attempts);
    } finally {
      await gateway.close();
      await a.close();
      await b.close();
    }
  });

  it("keeps trying the exits when every one of them is down, and serves as soon as one answers", async () => {
    let a = await startUpstreamProxy();
    const gateway = await startWithExits([a]);
    try {
      const port = a.port;
      await a.close();
      for (let i = 0; i < 5; i++) {
        const answer = await connectThrough(gateway);
        expect(answer).toEqual({ status: 502, error: "upstream_failed" });
      }
      a = await startUpstreamProxy(undefined, undefined, port);
      // Well within the back-off: the only exit is tried anyway.
      expect((await connectThrough(gateway)).status).toBe(200);
      expect(a.tunnels).toHaveLength(1);
    } finally {
      await gateway.close();
      await a.close();
    }
  });

  it("moves a sticky session back to its exit on every instance once the exit is up again", async () => {
    const a = await startUpstreamProxy();
    let b = await startUpstreamProxy();
    const exits = [a, b];
    const gateways = [await startWithExits(exits), await startWithExits(exits)];
    try {
      // A session that hashes to b.
      let n = 0;
      while ((await sessionTunnel(gateways[0] as Gateway, `back${n}`, exits)).exit !== 1) n++;
      const session = `back${n}`;
      const bPort = b.port;
      await b.close();
      for (const gateway of gateways) {
        // Its failures mark b down on this instance; the session then moves to a, and says so.
        await waitFor(async () => (await sessionTunnel(gateway, session, exits)).exit === 0, "the move to a");
        const moved = await sessionTunnel(gateway, session, exits);
        expect(moved.head).toContain("X-ByteToll-Session-Moved: 1");
      }
      b = await startUpstreamProxy(undefined, undefined, bPort);
      exits[1] = b;
      for (const gateway of gateways) {
        // Once the health check's retry finds b up, the session's next tunnel goes there again.
        await waitFor(
          async () => (await sessionTunnel(gateway, session, exits)).exit === 1,
          "the session back on b",
          4 * RETRY_MS,
        );
        const back = await sessionTunnel(gateway, session, exits);
        expect(back.head).toBe("HTTP/1.1 200 Connection Established");
      }
    } finally {
      for (const gateway of gateways) await gateway.close();
      await a.close();
      await b.close();
    }
  });
});
