import { execFile } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import net from "node:net";
import tls from "node:tls";
import { promisify } from "node:util";
import { applyLedgerEntry, hashSecret, randomSecret, schema } from "@bytetoll/db";
import type { TestDatabase } from "@bytetoll/db/testing";
import { defaultGatewayConfig, type GatewayConfig } from "@bytetoll/egress";
import { type Logger, pino } from "pino";
import { vi } from "vitest";
import { selfSignedCertificate } from "../../src/base/tls-certificate.ts";
import { createGateway, type Gateway, type GatewayOptions } from "../../src/gateway.ts";

export const silentLogger = pino({ level: "silent" });

let certificate: Promise<{ cert: string; key: string }> | null = null;
export function testCertificate(): Promise<{ cert: string; key: string }> {
  certificate ??= selfSignedCertificate(undefined);
  return certificate;
}

/** A gateway on loopback with free ports; loopback origins opened by EGRESS_ALLOW as in
 * production tests, and no timer-driven flush unless asked (tests flush explicitly). */
export async function startGateway(
  database: TestDatabase,
  overrides: Partial<GatewayConfig> = {},
  logger: Logger = silentLogger,
  options: Pick<GatewayOptions, "heartbeatMs" | "upstreamHealth"> = {},
): Promise<Gateway> {
  const config: GatewayConfig = {
    ...defaultGatewayConfig,
    host: "127.0.0.1",
    httpPort: 0,
    httpsPort: 0,
    socksPort: 0,
    metricsPort: 0,
    tls: await testCertificate(),
    egressAllow: ["127.0.0.0/8"],
    flushIntervalMs: 60_000,
    shutdownGraceMs: 200,
    ...overrides,
  };
  const gateway = createGateway({ database, config, logger, ...options });
  await gateway.listen();
  return gateway;
}

/** Two gateways on one database, as behind a load balancer, whose caches outlive any test: a
 * change either of them sees can only have come through the database's change feed. */
export async function startGatewayPair(database: TestDatabase): Promise<[Gateway, Gateway]> {
  const cacheTtlMs = 600_000;
  return [await startGateway(database, { cacheTtlMs }), await startGateway(database, { cacheTtlMs })];
}

export interface SeededUser {
  userId: string;
  username: string;
  password: string;
}

let seq = 0;
/** A user with proxy credentials and a balance credited through the ledger (the only way a
 * balance changes). */
export async function seedUser(database: TestDatabase, balanceBytes: number): Promise<SeededUser> {
  seq += 1;
  const [user] = await database.db
    .insert(schema.users)
    .values({ email: `user${seq}-${randomSecret(4)}@example.com` })
    .returning();
  if (!user) throw new Error("no user");
  const username = `u${randomSecret(6).replace(/[^A-Za-z0-9]/g, "x")}`;
  const password = randomSecret(12);
  await database.db.insert(schema.proxyCredentials).values({
    userId: user.id,
    username,
    passwordHash: hashSecret(password),
    passwordEnc: "not-needed-by-the-gateway",
  });
  if (balanceBytes !== 0) {
    await applyLedgerEntry(database.db, {
      userId: user.id,
      kind: "purchase",
      reference: `seed-${user.id}`,
      deltaBytes: balanceBytes,
    });
  }
  return { userId: user.id, username, password };
}

export async function usageOf(database: TestDatabase, userId: string) {
  const rows = await database.query<{ domain: string; proxy_type: string; bytes: string; requests: string }>(
    "SELECT domain, proxy_type, bytes, requests FROM usage_rollups WHERE user_id = $1 ORDER BY domain, proxy_type",
    [userId],
  );
  return rows.map((r) => ({
    domain: r.domain,
    proxyType: r.proxy_type,
    bytes: Number(r.bytes),
    requests: Number(r.requests),
  }));
}

export async function balanceOf(database: TestDatabase, userId: string): Promise<number> {
  const [row] = await database.query<{ balance_bytes: string }>(
    "SELECT balance_bytes FROM users WHERE id = $1",
    [userId],
  );
  return Number(row?.balance_bytes);
}

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends exact bytes (no client-side URL normalisation) and reads one response. */
export function rawExchange(port: number, request: string, secure = false): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = secure
      ? tls.connect({ port, host: "127.0.0.1", rejectUnauthorized: false })
      : net.connect(port, "127.0.0.1");
    let data = Buffer.alloc(0);
    const tryParse = (final: boolean) => {
      const end = data.indexOf("\r\n\r\n");
      if (end === -1) {
        if (final) reject(new Error(`no response head: ${data.toString()}`));
        return;
      }
      const [statusLine, ...lines] = data.subarray(0, end).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers["content-length"] ?? Number.NaN);
      const body = data.subarray(end + 4);
      const chunkedDone = headers["transfer-encoding"] === "chunked" && body.includes("0\r\n\r\n");
      if (!final && !chunkedDone && (Number.isNaN(length) || body.length < length)) return;
      socket.destroy();
      resolve({ status: Number(statusLine?.split(" ")[1]), headers, body: body.toString("utf8") });
    };
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      tryParse(false);
    });
    socket.on("end", () => tryParse(true));
    socket.on("error", reject);
    socket.write(request);
  });
}

const run = promisify(execFile);

/** curl as a real client; returns status code and body. */
export async function curl(args: string[]): Promise<{ status: number; body: string }> {
  const { stdout } = await run("curl", ["-s", "-S", "--max-time", "15", "-w", "\n%{http_code}", ...args], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const cut = stdout.lastIndexOf("\n");
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

/** Waits for a condition the gateway reaches asynchronously (a socket close), bounded. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  await vi.waitFor(
    () => {
      if (!condition()) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: 2_000, interval: 10 },
  );
}

/** Opens a CONNECT tunnel by hand and returns the socket once the gateway said 200. */
export function openTunnel(proxyPort: number, authorization: string, authority: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxyPort, "127.0.0.1");
    let head = "";
    const onData = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      socket.removeListener("data", onData);
      if (head.startsWith("HTTP/1.1 200")) resolve(socket);
      else reject(new Error(head));
    };
    socket.on("data", onData);
    socket.on("error", reject);
    socket.write(
      `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\nProxy-Authorization: ${authorization}\r\n\r\n`,
    );
  });
}

/** A plain-HTTP connection through the gateway, kept alive after carrying one GET to the origin;
 * `state.closed` turns true when the gateway closes it. */
export async function keptAlive(proxyPort: number, user: SeededUser, originPort: number) {
  const socket = net.connect(proxyPort, "127.0.0.1");
  const state = { closed: false, received: "" };
  socket.on("data", (chunk: Buffer) => {
    state.received += chunk.toString("latin1");
  });
  socket.on("close", () => {
    state.closed = true;
  });
  socket.on("error", () => {});
  socket.write(
    `GET http://127.0.0.1:${originPort}/ HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
  );
  await until(() => state.received.includes("hello from origin"), "the kept-alive answer");
  return { socket, state };
}

/** Sends one keep-alive GET on an open socket and resolves when `expectedBytes` of body arrived. */
export function getOver(socket: net.Socket, path: string, expectedBytes: number): Promise<void> {
  return new Promise((resolve) => {
    let data = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf("\r\n\r\n");
      if (end !== -1 && data.length - end - 4 >= expectedBytes) {
        socket.removeListener("data", onData);
        resolve();
      }
    };
    socket.on("data", onData);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: origin\r\n\r\n`);
  });
}

/** Retries an async check until it holds (bounded): for byte counts that settle only after
 * the last packets of a closed connection were read on both sides. */
export async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`never settled: ${what}`);
    },
    { timeout: 2_000, interval: 20 },
  );
}

/** Usage batches the gateway refused to commit because they billed past its leases plus the
 * run-ahead bound (AccountBalance.commitBound): normal traffic never makes one. */
export async function leaseOvershoots(gateway: Gateway): Promise<number> {
  const metric = gateway.metricsRegistry.getSingleMetric("bytetoll_gateway_lease_overshoots_total");
  const values = (await metric?.get())?.values ?? [];
  return values.reduce((sum, value) => sum + value.value, 0);
}

/**
 * This process's TCP sockets whose far end is the given local port, in any state (a dial still in
 * SYN_SENT included). Unlike the count of every descriptor, it does not move when the database pool
 * or Redis opens or closes a connection while a test waits.
 */
export function socketsTo(port: number): number {
  const suffix = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  const inodes = new Set<string>();
  for (const table of ["/proc/self/net/tcp", "/proc/self/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const inode = fields[9];
      if (inode && fields[2]?.endsWith(suffix)) inodes.add(inode);
    }
  }
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1] ?? "");
    } catch {
      return false; // closed since the directory was read
    }
  }).length;
}
