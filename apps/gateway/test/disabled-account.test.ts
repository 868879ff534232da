import { type ChildProcess, spawn } from "node:child_process";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import {
  balanceOf,
  basic,
  eventually,
  keptAlive,
  rawExchange,
  type SeededUser,
  seedUser,
  startGatewayPair,
  usageOf,
} from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

const DOWNLOAD_BYTES = 200 * 1024 * 1024;

let database: TestDatabase;
let first: Gateway;
let second: Gateway;

beforeAll(async () => {
  database = await createTestDatabase();
  [first, second] = await startGatewayPair(database);
});
afterAll(async () => {
  await first.close();
  await second.close();
  await database.close();
});

function get(gateway: Gateway, user: SeededUser, origin: TestOrigin) {
  return rawExchange(
    gateway.httpPort,
    `GET http://127.0.0.1:${origin.port}/ HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
  );
}

/** curl downloading a large body through the gateway at a limited rate (with `-p` through a
 * CONNECT tunnel): still running when the account is disabled. */
function slowDownload(gateway: Gateway, user: SeededUser, origin: TestOrigin, tunnel: boolean) {
  const args = [
    "-s",
    "-o",
    "/dev/null",
    // Fast enough that what sits in the client's socket buffer at the cut is read within
    // moments, slow enough that the download is far from done.
    "--limit-rate",
    "20M",
    "-x",
    `http://${user.username}:${user.password}@127.0.0.1:${gateway.httpPort}`,
    ...(tunnel ? ["-p"] : []),
    `http://127.0.0.1:${origin.port}/bytes/${DOWNLOAD_BYTES}`,
  ];
  // curl writes the body bytes it received even when the transfer is cut.
  const child: ChildProcess = spawn("curl", ["-w", "%{size_download}", ...args], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const state = { exitCode: null as number | null, received: 0 };
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.once("close", (code) => {
    state.received = Number(output);
    state.exitCode = code ?? -1;
  });
  return { child, state };
}

async function within(ms: number, condition: () => boolean, what: () => string): Promise<void> {
  await vi.waitFor(
    () => {
      if (!condition()) throw new Error(`timed out waiting for ${what()}`);
    },
    { timeout: ms, interval: 20 },
  );
}

async function setDisabled(user: SeededUser, disabled: boolean) {
  await database.query(`UPDATE users SET disabled_at = ${disabled ? "now()" : "NULL"} WHERE id = $1`, [
    user.userId,
  ]);
}

describe("an account the operator disables", () => {
  it("is cut mid-download on every instance, refused with 403 account_disabled, billed exactly for what was relayed, and let in again when enabled", async () => {
    const origin = await startOrigin();
    const bystanderOrigin = await startOrigin();
    try {
      const user = await seedUser(database, 10 * DOWNLOAD_BYTES);
      const bystander = await seedUser(database, 10 * DOWNLOAD_BYTES);
      const downloads = [slowDownload(first, user, origin, false), slowDownload(second, user, origin, true)];
      const idle = [
        (await keptAlive(first.httpPort, user, origin.port)).state,
        (await keptAlive(second.httpPort, user, origin.port)).state,
      ];
      const bystanderDownload = slowDownload(first, bystander, bystanderOrigin, false);
      // Both downloads are well under way.
      await eventually(async () => origin.bytes() > 8 * 1024 * 1024, "the downloads to start");
      expect(downloads.every((d) => d.state.exitCode === null)).toBe(true);

      const startedAt = Date.now();
      await setDisabled(user, true);
      await within(
        10_000,
        () => downloads.every((d) => d.state.exitCode !== null) && idle.every((s) => s.closed),
        () =>
          `the downloads and the kept-alive connections to be cut: ${JSON.stringify({ downloads: downloads.map((d) => d.state), idle })}`,
      );
      // The box may be busy with other tests; the feed itself takes milliseconds.
      expect(Date.now() - startedAt).toBeLessThan(5_000);
      // curl reports a transfer cut short (18: partial file, 56: receive failure).
      for (const download of downloads) expect([18, 56]).toContain(download.state.exitCode);
      // Someone else's download carries on.
      expect(bystanderDownload.state.exitCode).toBeNull();
      bystanderDownload.child.kill();

      for (const gateway of [first, second]) {
        const refused = await get(gateway, user, origin);
        expect(refused.status).toBe(403);
        expect(refused.headers["x-bytetoll-error"]).toBe("account_disabled");
        expect(JSON.parse(refused.body)).toMatchObject({ success: false, error: "account_disabled" });
      }
      const refusedTunnel = await rawExchange(
        first.httpPort,
        `CONNECT 127.0.0.1:${origin.port} HTTP/1.1\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
      );
      expect(refusedTunnel.status).toBe(403);

      // What was relayed before the cut is billed, once: at least every body byte the clients
      // received, at most what the origin sent (the rest still sat in socket buffers, never
      // read by the gateway), and the ledger took exactly the billed bytes.
      await first.flush();
      await second.flush();
      const billed = (await usageOf(database, user.userId)).reduce((sum, row) => sum + row.bytes, 0);
      const received = downloads.reduce((sum, d) => sum + d.state.received, 0);
      expect(received).toBeGreaterThan(1024 * 1024);
      expect(billed).toBeGreaterThanOrEqual(received);
      expect(billed).toBeLessThanOrEqual(origin.bytes());
      expect(origin.bytes()).toBeLessThan(2 * DOWNLOAD_BYTES);
      expect(await balanceOf(database, user.userId)).toBe(10 * DOWNLOAD_BYTES - billed);
      await first.flush();
      await second.flush();
      expect((await usageOf(database, user.userId)).reduce((sum, row) => sum + row.bytes, 0)).toBe(billed);

      await setDisabled(user, false);
      for (const gateway of [first, second]) {
        await eventually(async () => (await get(gateway, user, origin)).status === 200, "enabled again");
      }
    } finally {
      await origin.close();
      await bystanderOrigin.close();
    }
  });

  it("is refused on an instance that had never seen it (the credential read carries the flag)", async () => {
    const origin = await startOrigin();
    try {
      const user = await seedUser(database, 10_000_000);
      await setDisabled(user, true);
      const refused = await get(first, user, origin);
      expect(refused.status).toBe(403);
      expect(refused.headers["x-bytetoll-error"]).toBe("account_disabled");
      expect(origin.bytes()).toBe(0);
    } finally {
      await origin.close();
    }
  });
});
