import http from "node:http";
import net from "node:net";
import { Writable } from "node:stream";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { basic, rawExchange, type SeededUser, seedUser, startGateway, usageOf } from "./support/harness.ts";

let database: TestDatabase;
let gateway: Gateway;
/** The gateway's log lines, as JSON. */
const logged: Record<string, unknown>[] = [];

/** A site with what a proxy meets in the wild: a response head of 100 KB, and an endless
 * download without a length (chunked for HTTP/1.1, ending with the connection for HTTP/1.0). */
let site: http.Server;
let sitePort: number;
/** Bytes the site received on its sockets, counted on the sockets themselves. */
let siteReceived = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  const logger = pino(
    { level: "info" },
    new Writable({
      write(line, _encoding, done) {
        logged.push(JSON.parse(String(line)));
        done();
      },
    }),
  );
  gateway = await startGateway(database, { cacheTtlMs: 0 }, logger);
  site = http.createServer((req, res) => {
    if (req.url === "/huge-head") {
      res.writeHead(200, { "X-Huge": "h".repeat(100_000), "Content-Length": "2" });
      res.end("ok");
      return;
    }
    if (req.url === "/upload") {
      // Answers once the whole body is in: never, for an account that cannot pay for it.
      req.resume();
      req.on("end", () => res.end("got it"));
      return;
    }
    res.writeHead(200, { "Content-Type": "application/octet-stream" });
    const piece = Buffer.alloc(64 * 1024, 120);
    const pump = () => {
      while (!res.destroyed && res.write(piece));
      if (!res.destroyed) res.once("drain", pump);
    };
    pump();
  });
  site.on("connection", (socket: net.Socket) => {
    socket.on("data", (chunk: Buffer) => {
      siteReceived += chunk.length;
    });
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  sitePort = (site.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await gateway.close();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
  await database.close();
});

const authOf = (user: SeededUser) => `Proxy-Authorization: ${basic(user.username, user.password)}\r\n`;

async function billed(userId: string): Promise<number> {
  await gateway.flush();
  return (await usageOf(database, userId)).reduce((sum, row) => sum + row.bytes, 0);
}

/** Sends `request` (then `body`, with backpressure, while the gateway keeps reading) and reads
 * until the gateway ends the connection: what arrived, and how it ended. */
function exchange(request: string, body?: Buffer): Promise<{ data: Buffer; ended: "fin" | string }> {
  return new Promise((resolve) => {
    const socket = net.connect(gateway.httpPort, "127.0.0.1");
    const chunks: Buffer[] = [];
    let ended: "fin" | string = "fin";
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      ended = error.code ?? error.message;
    });
    socket.on("close", () => resolve({ data: Buffer.concat(chunks), ended }));
    socket.write(request);
    if (!body) return;
    let sent = 0;
    const pump = () => {
      while (sent < body.length && !socket.destroyed) {
        const piece = body.subarray(sent, sent + 64 * 1024);
        sent += piece.length;
        if (!socket.write(piece)) return void socket.once("drain", pump);
      }
    };
    pump();
  });
}

describe("a response head over 64 KiB", () => {
  it("is answered 502 saying why, and only the request the site received is billed", async () => {
    const user = await seedUser(database, 100_000_000);
    const before = siteReceived;
    const answer = await rawExchange(
      gateway.httpPort,
      `GET http://127.0.0.1:${sitePort}/huge-head HTTP/1.1\r\nHost: x\r\n${authOf(user)}\r\n`,
    );
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body).message).toBe(
      "The destination sent a response head over 64 KiB, which the gateway does not relay",
    );
    const request = siteReceived - before;
    expect(request).toBeGreaterThan(0);
    // Before: the 100 KB head the client never saw was billed too.
    expect(await billed(user.userId)).toBe(request);
  });
});

describe("a balance that runs out mid-transfer", () => {
  const BALANCE = 300_000;

  it("is answered 402 when the response has not begun (an upload), and logged", async () => {
    const user = await seedUser(database, BALANCE);
    const body = Buffer.alloc(20_000_000, 97);
    const { data } = await exchange(
      `POST http://127.0.0.1:${sitePort}/upload HTTP/1.1\r\nHost: x\r\n${authOf(user)}Content-Length: ${body.length}\r\n\r\n`,
      body,
    );
    const text = data.toString("latin1");
    expect(text).toMatch(/^HTTP\/1\.1 402 Balance Exhausted\r\n/);
    expect(text).toContain("Your data balance ran out during the request: add data to continue");
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: "data ran out mid-transfer",
        userId: user.userId,
        reason: "balance_exhausted",
        client: "answered",
      }),
    );
  });

  it("ends a chunked body without its last chunk, so the client knows it is incomplete", async () => {
    const user = await seedUser(database, BALANCE);
    const { data, ended } = await exchange(
      `GET http://127.0.0.1:${sitePort}/stream HTTP/1.1\r\nHost: x\r\n${authOf(user)}\r\n`,
    );
    const text = data.toString("latin1");
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toMatch(/\r\nTransfer-Encoding: chunked\r\n/i);
    expect(text.endsWith("\r\n0\r\n\r\n")).toBe(false);
    expect(ended).toBe("fin");
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: "data ran out mid-transfer", userId: user.userId, client: "cut" }),
    );
  });

  it("resets a body that ends with the connection (HTTP/1.0), so it does not look complete", async () => {
    const user = await seedUser(database, BALANCE);
    const { data, ended } = await exchange(
      `GET http://127.0.0.1:${sitePort}/stream HTTP/1.0\r\nHost: x\r\n${authOf(user)}\r\n`,
    );
    expect(data.toString("latin1", 0, 20)).toMatch(/^HTTP\/1\.1 200 /);
    expect(ended).toBe("ECONNRESET");
  });
});
