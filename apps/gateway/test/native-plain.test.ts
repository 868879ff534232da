import http from "node:http";
import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { basic, seedUser, startGateway, usageOf } from "./support/harness.ts";

/**
 * Plain requests without a body on 8080 are served on bare descriptors (the native plain path):
 * every framing of a response, on one kept-alive client connection, arrives whole and is billed
 * exactly as the site's own socket counted it.
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
