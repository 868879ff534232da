import { execFile } from "node:child_process";
import net from "node:net";
import { promisify } from "node:util";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { basic, rawExchange, type SeededUser, seedUser, startGateway } from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

const run = promisify(execFile);

let database: TestDatabase;
let gateway: Gateway;
let origin: TestOrigin;
let user: SeededUser;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startGateway(database, { headTimeoutMs: 10_000 });
  origin = await startOrigin();
  user = await seedUser(database, 1_000_000_000);
});
afterAll(async () => {
  await gateway.close();
  await origin.close();
  await database.close();
});

/** Everything the gateway sends back until it closes (or `ms` pass). */
function rawAll(request: string | Buffer, ms = 5_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(gateway.httpPort, "127.0.0.1", () => socket.write(request));
    let data = "";
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve(data));
    setTimeout(() => socket.destroy(), ms).unref();
  });
}

const auth = () => `Proxy-Authorization: ${basic(user.username, user.password)}`;

describe("what real clients send", () => {
  it("gives an HTTP/1.0 client (ab) a body it can read, never chunked", async () => {
    const answer = await rawAll(
      `GET http://127.0.0.1:${origin.port}/chunked HTTP/1.0\r\nHost: x\r\n${auth()}\r\n\r\n`,
    );
    const [head = "", body] = answer.split("\r\n\r\n");
    expect(head).not.toMatch(/transfer-encoding/i);
    expect(body).toBe("first chunk\nsecond chunk\n");
    const ab = await run("ab", [
      "-n",
      "3",
      "-X",
      `127.0.0.1:${gateway.httpPort}`,
      "-P",
      `${user.username}:${user.password}`,
      `http://127.0.0.1:${origin.port}/random/100000`,
    ]);
    expect(ab.stdout).toMatch(/Document Length:\s+100000 bytes/);
    expect(ab.stdout).toMatch(/Failed requests:\s+0/);
  });

  it("accepts a request whose lines end in a bare LF at once, as squid and tinyproxy do", async () => {
    const started = Date.now();
    const answer = await rawExchange(
      gateway.httpPort,
      `GET http://127.0.0.1:${origin.port}/ HTTP/1.1\nHost: x\n${auth()}\nConnection: close\n\n`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("hello from origin\n");
    // Well before the head deadline (10 s here) it waited out before.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("answers a request head over 64 KiB with 431, as squid does", async () => {
    const answer = await rawAll(
      `GET http://127.0.0.1:${origin.port}/ HTTP/1.1\r\nHost: x\r\n${auth()}\r\nX-Big: ${"a".repeat(70_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  });

  it("relays ws:// in absolute form as the HTTP it is, and passes the Trailer header on", async () => {
    const answer = await rawExchange(
      gateway.httpPort,
      `GET ws://127.0.0.1:${origin.port}/ HTTP/1.1\r\nHost: x\r\n${auth()}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("hello from origin\n");
    const withTrailer = await rawAll(
      `GET http://127.0.0.1:${origin.port}/trailer HTTP/1.1\r\nHost: x\r\n${auth()}\r\nTE: trailers\r\nConnection: close\r\n\r\n`,
    );
    expect(withTrailer).toMatch(/\r\nTrailer: X-Checksum\r\n/i);
    expect(withTrailer).toContain("X-Checksum: c0ffee");
  });

  it("tells a person what to change for empty credentials, a port out of range and an unbracketed IPv6 address", async () => {
    const empty = await rawExchange(
      gateway.httpPort,
      `GET http://127.0.0.1:${origin.port}/ HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic ${Buffer.from(":").toString("base64")}\r\n\r\n`,
    );
    expect(empty.status).toBe(407);
    expect(JSON.parse(empty.body).message).toBe(
      "The proxy username or password is empty: send Basic base64(username:password)",
    );
    const tooHigh = await rawAll(`CONNECT example.com:65536 HTTP/1.1\r\nHost: x\r\n${auth()}\r\n\r\n`);
    expect(tooHigh).toMatch(/^HTTP\/1\.1 400 /);
    expect(tooHigh).toContain("CONNECT port 65536 is not a port: use 1 to 65535");
    const v6 = await rawAll(`CONNECT ::1:443 HTTP/1.1\r\nHost: x\r\n${auth()}\r\n\r\n`);
    expect(v6).toMatch(/^HTTP\/1\.1 400 /);
    expect(v6).toContain("CONNECT to an IPv6 address needs brackets: CONNECT [2001:db8::1]:443");
  });
});
