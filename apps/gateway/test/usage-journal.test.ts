import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort, waitForPort } from "../testing.ts";
import { balanceOf, basic, openTunnel, seedUser, usageOf } from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const mainScript = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const BALANCE = 1_000_000_000_000;
/** The journal is written every 50 ms; a loaded two-core box may stretch that a little. */
const JOURNAL_WINDOW_S = 0.15;

let database: TestDatabase;
let origin: TestOrigin;
let dataDir: string;

beforeAll(async () => {
  if (!process.env.DATABASE_URL) return;
  database = await createTestDatabase();
  origin = await startOrigin();
  dataDir = mkdtempSync(join(tmpdir(), "bytetoll-gateway-journal-"));
});
afterAll(async () => {
  if (!process.env.DATABASE_URL) return;
  await origin.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The gateway as production runs it: main.ts in its own process, PostgreSQL, a DATA_DIR. */
async function startGatewayProcess(httpPort: number, httpsPort: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", mainScript], {
    cwd: repoRoot,
    stdio: "ignore",
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      REDIS_URL: "",
      GATEWAY_BIND: "127.0.0.1",
      GATEWAY_HTTP_PORT: String(httpPort),
      GATEWAY_SOCKS_PORT: "0",
      GATEWAY_HTTPS_PORT: String(httpsPort),
      GATEWAY_METRICS_PORT: "off",
      // One process: its journal is DATA_DIR's own (workers.test.ts kills workers).
      GATEWAY_WORKERS: "1",
      EGRESS_ALLOW: "127.0.0.0/8",
    },
  });
  await waitForPort(httpPort);
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

async function billedBytes(userId: string): Promise<number> {
  return (await usageOf(database, userId)).reduce((sum, row) => sum + row.bytes, 0);
}

describe("usage survives kill -9", () => {
  it.skipIf(!process.env.DATABASE_URL)(
    "bills what a killed gateway relayed up to its last 50 ms, once, after it starts again",
    async () => {
      const user = await seedUser(database, BALANCE);
      const [httpPort, httpsPort] = [await freePort(), await freePort()];
      const first = await startGatewayProcess(httpPort, httpsPort);
      const tunnel = await openTunnel(
        httpPort,
        basic(user.username, user.password),
        `127.0.0.1:${origin.port}`,
      );
      let received = 0;
      tunnel.on("data", (chunk: Buffer) => {
        received += chunk.length;
      });
      tunnel.on("error", () => {});
      let killed = false;
      let cutBeforeKill = false;
      const closed = new Promise((resolve) => tunnel.on("close", resolve));
      tunnel.on("close", () => {
        cutBeforeKill = !killed;
      });
      const startedAt = Date.now();
      tunnel.write("GET /bytes/100000000000 HTTP/1.1\r\nHost: origin\r\n\r\n");
      // Right after a flush (the first usage appears), then well inside the next flush interval:
      // without the journal, everything relayed since that flush would go unbilled.
      await vi.waitUntil(async () => (await billedBytes(user.userId)) > 0, { timeout: 4_000, interval: 20 });
      // Not a wait for an event but the kill's place in the 1 s flush cycle: 600 ms of traffic
      // that only the journal (written every 50 ms) holds when the process dies.
      await new Promise((r) => setTimeout(r, 600));
      killed = true;
      first.kill("SIGKILL");
      await closed;
      const seconds = (Date.now() - startedAt) / 1000;
      await exited(first);

      const billedBeforeRestart = await billedBytes(user.userId);
      const second = await startGatewayProcess(httpPort, httpsPort);
      // Its first flush commits what the journal recovered; then a graceful stop.
      await vi.waitUntil(async () => (await billedBytes(user.userId)) !== billedBeforeRestart, {
        timeout: 5_000,
        interval: 50,
      });
      second.kill("SIGTERM");
      await exited(second);

      const billed = await billedBytes(user.userId);
      const rate = received / seconds;
      const unbilled = received - billed;
      console.log(
        `kill -9: received ${received} B at ${(rate / 1e6).toFixed(0)} MB/s, billed ${billed} B, ` +
          `unbilled ${unbilled} B (${((unbilled / rate) * 1000).toFixed(1)} ms of traffic)`,
      );
      // Full speed to the end: renewing the lease never held the transfer up or cut it.
      expect(cutBeforeKill).toBe(false);
      expect(unbilled).toBeLessThanOrEqual(rate * JOURNAL_WINDOW_S);
      // Never counted twice: at most the request and one read in flight beyond what arrived.
      expect(billed).toBeLessThanOrEqual(received + 256 * 1024);
      expect(await balanceOf(database, user.userId)).toBe(BALANCE - billed);
      // The killed run's lease went back when the same instance (same DATA_DIR) started again.
      const [lease] = await database.query<{ leased_bytes: string }>(
        "SELECT leased_bytes FROM users WHERE id = $1",
        [user.userId],
      );
      expect(Number(lease?.leased_bytes)).toBe(0);
      // Everything is committed, so the journal holds nothing any more.
      expect(readFileSync(join(dataDir, "gateway-usage", "usage-journal.ndjson"), "utf8")).toBe("");
    },
    60_000,
  );
});
