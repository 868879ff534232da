import { execFile } from "node:child_process";
import http from "node:http";
import { promisify } from "node:util";
import { hashSecret, randomSecret } from "@bytetoll/db";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import {
  balanceOf,
  basic,
  curl,
  leaseOvershoots,
  openTunnel,
  rawExchange,
  type SeededUser,
  seedUser,
  startGateway,
  startGatewayPair,
  until,
} from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

const run = promisify(execFile);

let database: TestDatabase;
let origin: TestOrigin;
let gateway: Gateway;

beforeAll(async () => {
  database = await createTestDatabase();
  origin = await startOrigin();
  gateway = await startGateway(database);
});
afterAll(async () => {
  await gateway.close();
  await origin.close();
  await database.close();
});

interface SeededSubuser extends SeededUser {
  subuserId: string;
  owner: SeededUser;
}

/** A sub-user of `owner` as the API creates one (migration 0023's table). */
async function seedSubuser(
  owner: SeededUser,
  limitBytes: number | null = null,
  period = "total",
): Promise<SeededSubuser> {
  const username = `su${randomSecret(8)
    .replace(/[^A-Za-z0-9]/g, "x")
    .toLowerCase()}`;
  const password = randomSecret(12);
  const [row] = await database.query<{ id: string }>(
    `INSERT INTO subusers (user_id, label, username, password_hash, password_enc, limit_bytes, limit_period, period_start)
     VALUES ($1, $2, $3, $4, 'not-needed', $5, $6, subuser_period_start($6)) RETURNING id`,
    [owner.userId, `label ${username}`, username, hashSecret(password), limitBytes, period],
  );
  return { userId: owner.userId, username, password, subuserId: row!.id, owner };
}

const plainGet = (g: Gateway, user: SeededUser, path = "/", username = user.username) =>
  rawExchange(
    g.httpPort,
    `GET http://127.0.0.1:${origin.port}${path} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(username, user.password)}\r\n\r\n`,
  );

const usageBySubuser = async (userId: string) =>
  database.query<{ subuser_id: string; bytes: number; requests: number }>(
    `SELECT subuser_id::text, sum(bytes)::float8 AS bytes, sum(requests)::float8 AS requests
       FROM usage_rollups WHERE user_id = $1 GROUP BY 1 ORDER BY 1`,
    [userId],
  );

const subuserRow = async (id: string) =>
  (
    await database.query<{ used_bytes: string; leased_bytes: string }>(
      "SELECT used_bytes, leased_bytes FROM subusers WHERE id = $1",
      [id],
    )
  )[0];

describe("a sub-user's credentials at the gateway", () => {
  it("work on HTTP, CONNECT, 8443 and SOCKS5 (with options), billed to the owner and counted for the sub-user", async () => {
    const owner = await seedUser(database, 100_000_000);
    const sub = await seedSubuser(owner, 50_000_000, "day");
    const target = `http://127.0.0.1:${origin.port}/`;
    const userinfo = (name: string) => `${name}:${encodeURIComponent(sub.password)}`;
    const answers = [
      await curl(["-x", `http://${userinfo(sub.username)}@127.0.0.1:${gateway.httpPort}`, target]),
      await curl([
        "-p",
        "-x",
        `http://${userinfo(`${sub.username}-session-abcd1234`)}@127.0.0.1:${gateway.httpPort}`,
        target,
      ]),
      await curl([
        "--proxy-insecure",
        "-x",
        `https://${userinfo(`${sub.username}-routing-smart`)}@127.0.0.1:${gateway.httpsPort}`,
        target,
      ]),
      await curl(["-x", `socks5h://${userinfo(sub.username)}@127.0.0.1:${gateway.socksPort}`, target]),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toContain("hello from origin");
    }
    // The owner's own credentials keep working beside it.
    expect((await plainGet(gateway, owner)).status).toBe(200);
    await gateway.flush();

    const rows = await usageBySubuser(owner.userId);
    const subRow = rows.find((row) => row.subuser_id === sub.subuserId);
    const ownRow = rows.find((row) => row.subuser_id === "00000000-0000-0000-0000-000000000000");
    expect(subRow?.requests).toBe(4);
    expect(ownRow?.requests).toBe(1);
    const billed = rows.reduce((sum, row) => sum + row.bytes, 0);
    expect(await balanceOf(database, owner.userId)).toBe(100_000_000 - billed);
    expect(Number((await subuserRow(sub.subuserId))?.used_bytes)).toBe(subRow?.bytes);
  });

  it("refuses a sub-user at its limit with 402 subuser_limit_reached (SOCKS5: not allowed), never the owner", async () => {
    const owner = await seedUser(database, 100_000_000);
    const sub = await seedSubuser(owner, 1_000_000, "month");
    await database.query(
      "UPDATE subusers SET used_bytes = 1000000, period_start = subuser_period_start('month') WHERE id = $1",
      [sub.subuserId],
    );
    const refused = await plainGet(gateway, sub);
    expect(refused.status).toBe(402);
    expect(refused.headers["x-bytetoll-error"]).toBe("subuser_limit_reached");
    await expect(
      run("curl", [
        "-s",
        "--max-time",
        "10",
        "-x",
        `socks5h://${sub.username}:${encodeURIComponent(sub.password)}@127.0.0.1:${gateway.socksPort}`,
        `http://127.0.0.1:${origin.port}/`,
      ]),
    ).rejects.toMatchObject({ code: 97 });
    expect((await plainGet(gateway, owner)).status).toBe(200);

    // Last month's use does not count: the period restarts (here: the row says an older period).
    await database.query("UPDATE subusers SET period_start = DATE '2000-01-01' WHERE id = $1", [
      sub.subuserId,
    ]);
    expect((await plainGet(gateway, sub)).status).toBe(200);
    // Raising the limit lets it in again at the next lease.
    await database.query(
      "UPDATE subusers SET used_bytes = 1000000, period_start = subuser_period_start('month'), limit_bytes = 2000000 WHERE id = $1",
      [sub.subuserId],
    );
    expect((await plainGet(gateway, sub)).status).toBe(200);
  });

  it("cuts an open tunnel once the sub-user's limit is used up, within one lease", async () => {
    const owner = await seedUser(database, 100_000_000);
    const limit = 3_000_000;
    const sub = await seedSubuser(owner, limit);
    const socket = await openTunnel(
      gateway.httpPort,
      basic(sub.username, sub.password),
      `127.0.0.1:${origin.port}`,
    );
    let received = 0;
    const state = { closed: false };
    socket.on("data", (chunk: Buffer) => {
      received += chunk.length;
    });
    socket.on("close", () => {
      state.closed = true;
    });
    socket.on("error", () => {});
    socket.write("GET /bytes/20000000 HTTP/1.1\r\nHost: origin\r\n\r\n");
    await until(() => state.closed, "the tunnel to be cut at the limit");
    // One instance: one lease past a renewal in flight (a grant is at most half of what the limit
    // leaves), and one read each way past the cut.
    expect(received).toBeLessThanOrEqual(limit + limit / 2 + 2 * 64 * 1024);
    await gateway.flush();
    // The cut is a reset, which drops what the sockets still held for the client: how far the
    // tunnel ran is read from what was billed.
    const billed = (await usageBySubuser(owner.userId)).reduce((sum, row) => sum + Number(row.bytes), 0);
    expect(billed).toBeGreaterThan(limit / 2);
    expect(billed).toBeLessThanOrEqual(limit + limit / 2 + 2 * 64 * 1024);
    expect((await plainGet(gateway, sub)).headers["x-bytetoll-error"]).toBe("subuser_limit_reached");
    expect((await plainGet(gateway, owner)).status).toBe(200);
  });

  it("closes a sub-user's tunnels and the owner's balance running out closes them too", async () => {
    const owner = await seedUser(database, 2_000_000);
    const sub = await seedSubuser(owner);
    const socket = await openTunnel(
      gateway.httpPort,
      basic(sub.username, sub.password),
      `127.0.0.1:${origin.port}`,
    );
    const state = { closed: false };
    socket.on("close", () => {
      state.closed = true;
    });
    socket.on("error", () => {});
    socket.resume();
    socket.write("GET /bytes/20000000 HTTP/1.1\r\nHost: origin\r\n\r\n");
    await until(() => state.closed, "the tunnel to be cut at the owner's balance");
    await gateway.flush();
    // A renewal in flight when the tunnel was cut may still grant what is left of the balance:
    // one more download of the whole balance spends it.
    let refused = await plainGet(gateway, sub, "/bytes/2000000");
    if (refused.status === 200) {
      await gateway.flush();
      refused = await plainGet(gateway, sub);
    }
    expect(refused.status).toBe(402);
    expect(refused.headers["x-bytetoll-error"]).toBe("balance_exhausted");
  });
});

describe("disabling or deleting a sub-user on one of two gateways", () => {
  let first: Gateway;
  let second: Gateway;
  beforeAll(async () => {
    [first, second] = await startGatewayPair(database);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  async function tunnelOn(g: Gateway, user: SeededUser) {
    const socket = await openTunnel(
      g.httpPort,
      basic(user.username, user.password),
      `127.0.0.1:${origin.port}`,
    );
    const state = { closed: false };
    socket.on("close", () => {
      state.closed = true;
    });
    socket.on("error", () => {});
    return { socket, state };
  }

  it("refuses a disabled sub-user with 403 subuser_disabled within a second on both, closing its tunnels, and not the owner", async () => {
    const owner = await seedUser(database, 100_000_000);
    const sub = await seedSubuser(owner);
    const tunnels = [await tunnelOn(first, sub), await tunnelOn(second, sub)];
    const ownTunnel = await tunnelOn(first, owner);
    const startedAt = Date.now();
    await database.query("UPDATE subusers SET enabled = false WHERE id = $1", [sub.subuserId]);
    await until(() => tunnels.every((t) => t.state.closed), "the sub-user's tunnels to close");
    const closedWithinMs = Date.now() - startedAt;
    for (const g of [first, second]) {
      const refused = await plainGet(g, sub);
      expect(refused.status).toBe(403);
      expect(refused.headers["x-bytetoll-error"]).toBe("subuser_disabled");
      expect((await plainGet(g, owner)).status).toBe(200);
    }
    expect(closedWithinMs).toBeLessThan(1_000);
    expect(ownTunnel.state.closed).toBe(false);
    ownTunnel.socket.destroy();

    await database.query("UPDATE subusers SET enabled = true WHERE id = $1", [sub.subuserId]);
    for (const g of [first, second]) {
      await expect
        .poll(async () => (await plainGet(g, sub)).status, { timeout: 2_000, interval: 20 })
        .toBe(200);
    }
  });

  it("refuses a deleted sub-user with 407 on both and closes its tunnels; a new password refuses the old one", async () => {
    const owner = await seedUser(database, 100_000_000);
    const renewed = await seedSubuser(owner);
    const renewedTunnels = [await tunnelOn(first, renewed), await tunnelOn(second, renewed)];
    await database.query("UPDATE subusers SET password_hash = $1 WHERE id = $2", [
      hashSecret("a-new-one"),
      renewed.subuserId,
    ]);
    await until(() => renewedTunnels.every((t) => t.state.closed), "the old password's tunnels to close");
    for (const g of [first, second]) expect((await plainGet(g, renewed)).status).toBe(407);

    const deleted = await seedSubuser(owner);
    const tunnels = [await tunnelOn(first, deleted), await tunnelOn(second, deleted)];
    await database.query("DELETE FROM subusers WHERE id = $1", [deleted.subuserId]);
    await until(() => tunnels.every((t) => t.state.closed), "the deleted sub-user's tunnels to close");
    for (const g of [first, second]) {
      const refused = await plainGet(g, deleted);
      expect(refused.status).toBe(407);
      expect(refused.headers["x-bytetoll-error"]).toBe("bad_credentials");
      expect((await plainGet(g, owner)).status).toBe(200);
    }
  });
});

describe("a sub-user's limit is one allowance however many gateway instances spend it", () => {
  const INSTANCES = 3;
  const DOWNLOADS = 60;
  const DOWNLOAD_BYTES = 2_000_000;
  const LIMIT = 30_000_000;
  const LEASE_MAX = 8 * 1024 * 1024;
  const PER_CONNECTION_SLACK = 2 * 64 * 1024;
  /** Each instance may run one lease ahead of a renewal in flight, each connection one read past
   * the moment it is cut. */
  const BOUND = INSTANCES * LEASE_MAX + DOWNLOADS * PER_CONNECTION_SLACK;

  function download(g: Gateway, user: SeededUser): Promise<number> {
    return new Promise((resolve) => {
      let bytes = 0;
      const req = http.request({
        host: "127.0.0.1",
        port: g.httpPort,
        path: `http://127.0.0.1:${origin.port}/bytes/${DOWNLOAD_BYTES}`,
        headers: { "Proxy-Authorization": basic(user.username, user.password) },
        agent: false,
      });
      req.on("response", (res) => {
        res.on("data", (chunk: Buffer) => {
          if (res.statusCode === 200) bytes += chunk.length;
        });
        res.on("close", () => resolve(bytes));
        res.on("error", () => resolve(bytes));
      });
      req.on("error", () => resolve(bytes));
      req.end();
    });
  }

  it("three instances and parallel downloads relay no more than the limit plus the bound", async () => {
    const gateways = await Promise.all(
      Array.from({ length: INSTANCES }, () => startGateway(database, { leaseMaxBytes: LEASE_MAX })),
    );
    const owner = await seedUser(database, 1_000_000_000);
    const sub = await seedSubuser(owner, LIMIT, "week");
    try {
      const received = await Promise.all(
        Array.from({ length: DOWNLOADS }, (_, i) => download(gateways[i % INSTANCES] as Gateway, sub)),
      );
      const relayed = received.reduce((sum, bytes) => sum + bytes, 0);
      for (const g of gateways) await g.flush();
      const used = Number((await subuserRow(sub.subuserId))?.used_bytes);
      console.log(
        `sub-user limit: limit ${LIMIT} B, relayed ${relayed} B (counted ${used} B), ` +
          `bound ${BOUND} B, overdraft ${relayed - LIMIT} B, on ${database.url ? "PostgreSQL" : "PGlite"}`,
      );
      expect(relayed).toBeGreaterThan(LIMIT / 2);
      expect(relayed).toBeLessThanOrEqual(LIMIT + BOUND);
      expect(used).toBeGreaterThanOrEqual(relayed);
      const billed = (await usageBySubuser(owner.userId)).reduce((sum, row) => sum + row.bytes, 0);
      expect(await balanceOf(database, owner.userId)).toBe(1_000_000_000 - billed);
      for (const g of gateways) expect(await leaseOvershoots(g)).toBe(0);
    } finally {
      await Promise.all(gateways.map((g) => g.close()));
    }
    // Stopped instances gave their sub-user leases back.
    const row = await subuserRow(sub.subuserId);
    expect(Number(row?.leased_bytes)).toBe(0);
  });
});
