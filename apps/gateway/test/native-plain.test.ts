import http from "node:http";
import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { basic, type SeededUser, seedUser, startGateway, usageOf } from "./support/harness.ts";
import { converseWith, splitAt, untrustedBytes } from "./support/raw-client.ts";

/**
 * Plain requests without a body on 8080 are served on bare descriptors (the native plain path):
 * every framing of a response, on one kept-alive client connection, arrives whole and is billed
 * exactly as the site's own socket counted it; whatever a client sends after such a request, and
 * whatever a site answers to it, in any splits, ends in an answer or a close — never a hang.
 */

let database: TestDatabase;
let gateway: Gateway;
let site: http.Server;
let sitePort: number;
/** Bytes the site's sockets received and sent. */
let siteBytes = 0;
const BIG = Buffer.alloc(300_000, 97);

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startGateway(database);
  site = http.createServer((req, res) => {
    if (req.url === "/big") {
      res.writeHead(200, { "Content-Length": BIG.length });
      res.end(req.method === "HEAD" ? undefined : BIG);
    } else if (req.url === "/chunked") {
      res.write("first piece ");
      setImmediate(() => res.end("and the last"));
    } else if (req.url === "/hints") {
      res.writeEarlyHints({ link: "</style.css>; rel=preload" });
      res.end("after hints");
    } else if (req.url === "/empty") {
      res.writeHead(204).end();
    } else res.end("small");
  });
  site.on("connection", (socket: net.Socket) => {
    socket.on("close", () => {
      siteBytes += socket.bytesRead + socket.bytesWritten;
    });
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  sitePort = (site.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await gateway.close();
  await new Promise((resolve) => site.close(resolve));
  await database.close();
});

/** Reads whole responses off one socket, one per call, by their framing. */
function responses(socket: net.Socket) {
  let data = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  socket.on("data", (chunk: Buffer) => {
    data = Buffer.concat([data, chunk]);
    wake?.();
  });
  const more = () => new Promise<void>((resolve) => (wake = resolve));
  return async (method = "GET"): Promise<{ head: string; body: Buffer }> => {
    for (;;) {
      const end = data.indexOf("\r\n\r\n");
      if (end !== -1) {
        const head = data.subarray(0, end).toString("latin1");
        const rest = data.subarray(end + 4);
        if (/^HTTP\/1\.1 1\d\d /.test(head)) {
          data = rest;
          return { head, body: Buffer.alloc(0) };
        }
        const length = /\r\ncontent-length: (\d+)/i.exec(head)?.[1];
        const size = method === "HEAD" || / 204 /.test(head.split("\r\n")[0] ?? "") ? 0 : Number(length);
        if (length !== undefined || size === 0) {
          if (rest.length >= size) {
            data = rest.subarray(size);
            return { head, body: rest.subarray(0, size) };
          }
        } else {
          const last = rest.indexOf("0\r\n\r\n");
          if (last !== -1) {
            data = rest.subarray(last + 5);
            return { head, body: rest.subarray(0, last + 5) };
          }
        }
      }
      await more();
    }
  };
}

describe("the native plain path", () => {
  it("relays every framing on one kept-alive connection, whole, and bills what the site counted", async () => {
    const user = await seedUser(database, 10_000_000);
    const auth = `Proxy-Authorization: ${basic(user.username, user.password)}\r\n`;
    const socket = net.connect(gateway.httpPort, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const next = responses(socket);
    const ask = (method: string, path: string) =>
      socket.write(`${method} http://127.0.0.1:${sitePort}${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`);

    ask("GET", "/big");
    const big = await next();
    expect(big.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(big.body.equals(BIG)).toBe(true);

    ask("GET", "/chunked");
    const chunked = await next();
    expect(chunked.head).toMatch(/\r\nTransfer-Encoding: chunked/i);
    expect(chunked.body.toString()).toContain("first piece ");
    expect(chunked.body.toString()).toContain("and the last");

    ask("GET", "/hints");
    expect((await next()).head).toMatch(/^HTTP\/1\.1 103 /);
    expect((await next()).body.toString()).toBe("after hints");

    ask("HEAD", "/big");
    const head = await next("HEAD");
    expect(head.head).toMatch(/\r\nContent-Length: 300000/i);

    ask("GET", "/empty");
    expect((await next()).head).toMatch(/^HTTP\/1\.1 204 /);

    ask("GET", "/small");
    expect((await next()).body.toString()).toBe("small");

    socket.destroy();
    // The site's sockets close (and count) once the gateway's pool lets them go.
    await gateway.close();
    gateway = await startGateway(database);
    await expect.poll(() => siteBytes, { timeout: 5_000 }).toBeGreaterThan(BIG.length);
    const [row] = await usageOf(database, user.userId);
    expect(row?.requests).toBe(6);
    expect(row?.bytes).toBe(siteBytes);
  });
});

/** Bits of HTTP syntax, so random messages come near the parser's edges. */
const FRAGMENTS = [
  "HTTP/1.1 200 OK\r\n",
  "HTTP/1.1 100 Continue\r\n\r\n",
  "HTTP/1.0 204 No Content\r\n",
  "GET http://127.0.0.1:1/ HTTP/1.1\r\n",
  "Content-Length: 5\r\n",
  "Content-Length: x\r\n",
  "Transfer-Encoding: chunked\r\n",
  "Connection: close\r\n",
  "5\r\nhello\r\n",
  "0\r\n\r\n",
  "\r\n",
  "\n",
  ":",
  "\u0000",
  "\u00ff",
];
const randomBytes = untrustedBytes(FRAGMENTS, 10);

describe("the native plain path, for any bytes in any splits", () => {
  let user: SeededUser;
  const get = (port: number) =>
    Buffer.from(
      `GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
      "latin1",
    );
  beforeAll(async () => {
    user = await seedUser(database, 1e9);
  });

  it("answers a request, then answers or closes whatever the client sends next", async () => {
    // A request alone, then the client's end: answered, then closed.
    const alone = await converseWith(gateway.httpPort, [get(sitePort)], { ms: 4_000 });
    expect(alone.text).toMatch(/^HTTP\/1\.1 200 [\s\S]*small$/);
    const request = get(sitePort);
    const next = fc.oneof(
      randomBytes,
      fc.nat(request.length).map((cut) => request.subarray(0, cut)),
      fc.constant(request),
    );
    await fc.assert(
      fc.asyncProperty(next, fc.array(fc.nat(96), { maxLength: 4 }), async (tail, cuts) => {
        const { text, closed } = await converseWith(gateway.httpPort, [request, ...splitAt(tail, cuts)], {
          ms: 4_000,
        });
        // (A request and more bytes read in one go are the Node session's, which gives a client
        // that ended its side nothing: the answer is checked only where this path served it.)
        expect(closed).toBe(true);
        if (text.length > 0) expect(text).toMatch(/^HTTP\/1\.[01] \d{3} /);
      }),
      { numRuns: 60 },
    );
  });

  it("answers or closes whatever a site sends back, then serves the next client", async () => {
    let answer: Buffer[] = [];
    const hostile = net.createServer((socket) => {
      socket.on("error", () => {});
      socket.once("data", async () => {
        for (const part of answer) {
          socket.write(part);
          await new Promise((resolve) => setImmediate(resolve));
        }
        socket.end();
      });
    });
    await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
    const port = (hostile.address() as net.AddressInfo).port;
    const valid = Buffer.from("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", "latin1");
    const sent = fc.oneof(
      randomBytes,
      fc.nat(valid.length).map((cut) => valid.subarray(0, cut)),
      fc.constant(valid),
    );
    try {
      await fc.assert(
        fc.asyncProperty(sent, fc.array(fc.nat(96), { maxLength: 4 }), async (bytes, cuts) => {
          answer = splitAt(bytes, cuts);
          const { text, closed } = await converseWith(gateway.httpPort, [get(port)], { ms: 4_000 });
          expect(closed).toBe(true);
          if (text.length > 0) expect(text).toMatch(/^HTTP\/1\.[01] \d{3} /);
        }),
        { numRuns: 60 },
      );
    } finally {
      await new Promise((resolve) => hostile.close(resolve));
    }
    const { text } = await converseWith(gateway.httpPort, [get(sitePort)], { ms: 4_000 });
    expect(text).toMatch(/^HTTP\/1\.1 200 [\s\S]*small$/);
  });
  it("cuts a site that sends interim answers without end once the account runs dry", async () => {
    const poor = await seedUser(database, 200_000);
    const endless = net.createServer((socket) => {
      socket.on("error", () => {});
      socket.once("data", () => {
        const more = () => {
          while (!socket.destroyed && socket.write("HTTP/1.1 100 Continue\r\n\r\n"));
          if (!socket.destroyed) socket.once("drain", more);
        };
        more();
      });
    });
    await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
    const port = (endless.address() as net.AddressInfo).port;
    try {
      const request = Buffer.from(
        `GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: x\r\nProxy-Authorization: ${basic(poor.username, poor.password)}\r\n\r\n`,
      );
      const { text } = await converseWith(gateway.httpPort, [request], {
        end: false,
        until: (seen) => seen.includes("HTTP/1.1 402 "),
        ms: 8_000,
      });
      expect(text.startsWith("HTTP/1.1 100 Continue\r\n\r\n")).toBe(true);
      expect(text).toContain("Your data balance ran out during the request");
    } finally {
      await new Promise((resolve) => endless.close(resolve));
    }
  });
});
