import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyLedgerEntry, hashSecret, schema } from "@bytetoll/db";
import { createTestDatabase } from "@bytetoll/db/testing";
import type { ControlMessage } from "../../apps/gateway/src/workers.ts";
import { freePort } from "../../apps/gateway/testing.ts";

/** The standalone gateway (main.ts) with GATEWAY_WORKERS=BENCH_WORKERS on a PostgreSQL database of
 * its own (DATABASE_URL), seeded with the bench user; says "ready" like gateway-process.ts. */
const database = await createTestDatabase();
const [user] = await database.db.insert(schema.users).values({ email: "bench@example.com" }).returning();
if (!user) throw new Error("seeding failed");
const username = "bench";
const password = "bench-password";
await database.db.insert(schema.proxyCredentials).values({
  userId: user.id,
  username,
  passwordHash: hashSecret(password),
  passwordEnc: "unused",
});
await applyLedgerEntry(database.db, {
  userId: user.id,
  kind: "purchase",
  reference: "bench",
  deltaBytes: 1e15,
});

const dataDir = mkdtempSync(join(tmpdir(), "bench-gateway-workers-"));
const main = fileURLToPath(new URL("../../apps/gateway/src/main.ts", import.meta.url));
const gateway = spawn(process.execPath, ["--import", "tsx", main], {
  stdio: ["ignore", "ignore", "inherit", "ipc"],
  env: {
    ...process.env,
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    REDIS_URL: "",
    GATEWAY_WORKERS: process.env.BENCH_WORKERS ?? "2",
    GATEWAY_BIND: "127.0.0.1",
    GATEWAY_HTTP_PORT: String(await freePort()),
    GATEWAY_HTTPS_PORT: String(await freePort()),
    GATEWAY_SOCKS_PORT: String(await freePort()),
    GATEWAY_METRICS_PORT: "0",
    EGRESS_ALLOW: "127.0.0.0/8",
    GATEWAY_MAX_CONNECTIONS_PER_IP: "2000",
    GATEWAY_MAX_CONNECTIONS_PER_NETWORK: "4000",
    LOG_LEVEL: "warn",
  },
});
gateway.on("message", (message: ControlMessage) => {
  if (message.type !== "ready") return;
  process.send?.({
    type: "ready",
    port: message.httpPort,
    tlsPort: message.httpsPort,
    socksPort: message.socksPort ?? undefined,
    username,
    password,
    // The process whose tree's CPU is the gateway's.
    pid: gateway.pid,
  });
});
process.on("disconnect", () => {
  gateway.once("exit", () => {
    rmSync(dataDir, { recursive: true, force: true });
    database.close().finally(() => process.exit(0));
  });
  gateway.kill("SIGTERM");
});
