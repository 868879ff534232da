import { mkdtempSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import {
  basic,
  curl,
  eventually,
  rawExchange,
  type SeededUser,
  seedUser,
  socketsTo,
  startGateway,
  until,
  usageOf,
} from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

let database: TestDatabase;
let gateway: Gateway;
let origin: TestOrigin;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startGateway(database);
  origin = await startOrigin();
});
afterAll(async () => {
  await gateway.close();
  await origin.close();
  await database.close();
});

/** Sends raw bytes on one connection and collects everything until `done(text)` or close. */
function converse(port: number, send: string | Buffer, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(send));
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (done(text)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
  });
}

async function billedExactly(user: SeededUser, before: number, requests: number): Promise<void> {
  // The last bytes of a closing connection may still be in flight to the gateway.
  await eventually(async () => {
    await gateway.flush();
    const [row] = await usageOf(database, user.userId);
    return row?.bytes === origin.bytes() - before;
  }, "metered bytes to equal the origin's count");
  const [row] = await usageOf(database, user.userId);
  expect(row?.requests).toBe(requests);
}

describe("plain HTTP relay", () => {
  it("relays a chunked request body untouched and bills it exactly", async () => {
    const user = await seedUser(database, 10_000_000);
    const before = origin.bytes();
    const text = await converse(
      gateway.httpPort,
      `POST http://127.0.0.1:${origin.port}/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n`,
      (t) => t.includes("hello world"),
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 OK/);
    await billedExactly(user, before, 1);
  });

  it("handles Expect: 100-continue uploads from curl", async () => {
    const user = await seedUser(database, 10_000_000);
    const before = origin.bytes();
    const body = "b".repeat(300_000);
    const file = join(mkdtempSync(join(tmpdir(), "upload-")), "body.txt");
    writeFileSync(file, body);
    const result = await curl([
      "-x",
      `http://${user.username}:${user.password}@127.0.0.1:${gateway.httpPort}`,
      "-H",
      "Expect: 100-continue",
      "--data-binary",
      `@${file}`,
      `http://127.0.0.1:${origin.port}/echo`,
    ]);
    expect(result.status).toBe(200);
    expect(result.body.length).toBe(body.length);
    await billedExactly(user, before, 1);
  });

  it("knows bodiless responses (HEAD, 204, 304) and keeps the connection for the next request", async () => {
    const user = await seedUser(database, 10_000_000);
    const auth = `Proxy-Authorization: ${basic(user.username, user.password)}\r\n`;
    const base = `http://127.0.0.1:${origin.port}`;
    const requests = [
      `HEAD ${base}/bytes/1000`,
      `GET ${base}/status/204`,
      `GET ${base}/status/304`,
      `GET ${base}/`,
    ]
      .map((line) => `${line} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`)
      .join("");
    // Pipelined: all four in one write; the answers come back in order.
    const text = await converse(gateway.httpPort, requests, (t) => t.includes("hello from origin"));
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
    expect(statuses).toEqual(["200", "204", "304", "200"]);
  });

  it("relays a response framed by connection close and then closes the client connection", async () => {
    const user = await seedUser(database, 10_000_000);
    let seen = 0;
    const legacy = net.createServer((socket) => {
      socket.once("data", (chunk: Buffer) => {
        seen += chunk.length;
        socket.end("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nbody until close");
      });
    });
    await new Promise<void>((resolve) => legacy.listen(0, "127.0.0.1", resolve));
    const port = (legacy.address() as net.AddressInfo).port;
    const text = await converse(
      gateway.httpPort,
      `GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
      () => false,
    );
    legacy.close();
    expect(text).toMatch(/Connection: close\r\n\r\nbody until close$/);
    await gateway.flush();
    const [row] = await usageOf(database, user.userId);
    const responseBytes = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nbody until close".length;
    expect(row?.bytes).toBe(seen + responseBytes);
  });

  it("switches protocols (101) into a metered two-way relay", async () => {
    const user = await seedUser(database, 10_000_000);
    const before = origin.bytes();
    const text = await converse(
      gateway.httpPort,
      `GET http://127.0.0.1:${origin.port}/ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\nping-pong`,
      (t) => t.endsWith("ping-pong"),
    );
    expect(text).toMatch(/^HTTP\/1\.1 101/);
    await until(() => origin.openSockets() <= 1, "the upgraded socket to close");
    await billedExactly(user, before, 1);
  });

  it("replaces a kept-alive target connection that the target closed meanwhile", async () => {
    const user = await seedUser(database, 10_000_000);
    const get = () =>
      rawExchange(
        gateway.httpPort,
        `GET http://127.0.0.1:${origin.port}/bytes/100 HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
      );
    expect((await get()).status).toBe(200);
    origin.closeIdle();
    await until(() => origin.openSockets() === 0, "the origin to drop idle connections");
    expect((await get()).status).toBe(200);
  });

  it("notices an idle target connection closing, so a request with a body goes to a fresh one", async () => {
    const user = await seedUser(database, 10_000_000);
    const auth = `Proxy-Authorization: ${basic(user.username, user.password)}\r\n`;
    const first = await rawExchange(
      gateway.httpPort,
      `GET http://127.0.0.1:${origin.port}/bytes/100 HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
    );
    expect(first.status).toBe(200);
    origin.closeIdle();
    await until(() => origin.openSockets() === 0, "the origin to drop idle connections");
    // The gateway saw the hang-up and closed its pooled connection: a request with a body (which
    // cannot be retried once sent) must not go to a stale one.
    await until(() => socketsTo(origin.port) === 0, "the gateway to close its idle connection");
    const post = await rawExchange(
      gateway.httpPort,
      `POST http://127.0.0.1:${origin.port}/echo HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 5\r\n\r\nhello`,
    );
    expect(post.status).toBe(200);
  });
});

describe("malformed requests are refused, never smuggled", () => {
  const cases: Array<[string, string]> = [
    ["Content-Length with Transfer-Encoding", "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n"],
    ["conflicting Content-Lengths", "Content-Length: 5\r\nContent-Length: 6\r\n"],
    ["an unknown transfer coding", "Transfer-Encoding: gzip, chunked\r\n"],
    ["a folded header line", "X-Folded: a\r\n b\r\n"],
    ["a space before the colon", "X-Bad : a\r\n"],
  ];
  it.each(cases)("refuses %s with 400", async (_name, headers) => {
    const user = await seedUser(database, 10_000_000);
    const response = await rawExchange(
      gateway.httpPort,
      `POST http://127.0.0.1:${origin.port}/echo HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n${headers}\r\nhello`,
    );
    expect(response.status).toBe(400);
    expect(response.headers["x-bytetoll-error"]).toBe("bad_request");
  });

  it("refuses an oversized head with 431, as squid does", async () => {
    const response = await rawExchange(
      gateway.httpPort,
      `GET http://127.0.0.1:${origin.port}/ HTTP/1.1\r\nX-Big: ${"a".repeat(70_000)}\r\n\r\n`,
    );
    expect(response.status).toBe(431);
    expect(response.headers["x-bytetoll-error"]).toBe("bad_request");
  });
});
