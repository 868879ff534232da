import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { defaultGatewayConfig } from "@bytetoll/egress";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nativeFrontDoorAddon } from "../src/front/native-listen.ts";
import type { Gateway } from "../src/gateway.ts";
import { basic, rawExchange, type SeededUser, seedUser, startGateway } from "./support/harness.ts";
import {
  type ConverseOptions,
  converseWith,
  splitAt,
  startEchoOrigin,
  untrustedBytes,
  waitFor,
} from "./support/raw-client.ts";

/**
 * Port 8080 accepted by the splice addon (no Node server, no Node socket for a tunnel that is
 * spliced): what a client sees must be what the Node listener gave it — a tunnel for a whole
 * CONNECT in any number of packets, the usual refusals, the HTTP session for everything else,
 * and for any bytes an answer or a close, never a hang or a crash.
 */

const HEAD_TIMEOUT_MS = 1_000;
const native =
  nativeFrontDoorAddon({ ...defaultGatewayConfig, host: "127.0.0.1", splice: "auto" }, "http") !== null;

let database: TestDatabase;
let gateway: Gateway;
let user: SeededUser;
/** Answers each chunk with "echo:" and the chunk. */
let origin: net.Server;
const originPort = () => (origin.address() as net.AddressInfo).port;

/** A conversation with the gateway's HTTP port (see `converseWith`). */
const converse = (parts: Buffer[], options?: ConverseOptions) =>
  converseWith(gateway.httpPort, parts, options);

const connectHead = (authorization: string | null, authority = `127.0.0.1:${originPort()}`) =>
  `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${
    authorization === null ? "" : `Proxy-Authorization: ${authorization}\r\n`
  }\r\n`;

describe.skipIf(!native)("the native front door on 8080", () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    origin = await startEchoOrigin();
    gateway = await startGateway(database, { headTimeoutMs: HEAD_TIMEOUT_MS, egressAllow: ["127.0.0.0/8"] });
    user = await seedUser(database, 1e9);
  });
  afterAll(async () => {
    await gateway?.close();
    await new Promise((resolve) => origin?.close(resolve));
    await database?.close();
  });

  it("splices a CONNECT sent whole, with the bytes sent behind its head going to the site first", async () => {
    const head = connectHead(basic(user.username, user.password));
    const { text } = await converse([Buffer.from(`${head}early bytes`, "latin1")], {
      end: false,
      until: (seen) => seen.includes("echo:early bytes"),
    });
    expect(text).toBe("HTTP/1.1 200 Connection Established\r\n\r\necho:early bytes");
  });

  it("serves a CONNECT whose head comes in pieces, and one behind blank lines, as the Node listener did", async () => {
    const head = Buffer.from(connectHead(basic(user.username, user.password)), "latin1");
    for (const parts of [
      [head.subarray(0, 3), head.subarray(3, 40), head.subarray(40)],
      [Buffer.from("\r\n"), head],
    ]) {
      const { text } = await converse([...parts, Buffer.from("ping")], {
        end: false,
        until: (seen) => seen.includes("echo:ping"),
      });
      expect(text).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\necho:ping$/);
    }
  });

  it("refuses as before: 407 without credentials, 403 for a forbidden target, 502 when the site refuses", async () => {
    expect((await rawExchange(gateway.httpPort, connectHead(null))).status).toBe(407);
    const credentials = basic(user.username, user.password);
    expect((await rawExchange(gateway.httpPort, connectHead(credentials, "10.0.0.1:443"))).status).toBe(403);
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect((await rawExchange(gateway.httpPort, connectHead(credentials, `127.0.0.1:${port}`))).status).toBe(
      502,
    );
  });

  it("answers a client that sends nothing with a 408 at the head deadline counted from accept", async () => {
    const started = Date.now();
    const { text, closed } = await converse([], { end: false, ms: HEAD_TIMEOUT_MS + 3_000 });
    expect(closed).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeGreaterThanOrEqual(HEAD_TIMEOUT_MS - 50);
  });

  it("for any bytes in any splits, answers or closes — never a hang or a crash — and a valid CONNECT is a tunnel", async () => {
    const valid = Buffer.from(connectHead(basic(user.username, user.password)), "latin1");
    const fragments = [
      "CONNECT ",
      "GET ",
      "127.0.0.1:1",
      " HTTP/1.1",
      "\r\n",
      "\n",
      ":",
      "Host: a",
      "\u0000",
      "\u00ff",
    ];
    const bytes = fc.oneof(
      untrustedBytes(fragments, 12),
      fc.nat(valid.length).map((cut) => valid.subarray(0, cut)),
      fc.constant(valid),
    );
    await fc.assert(
      fc.asyncProperty(bytes, fc.array(fc.nat(96), { maxLength: 4 }), async (sent, cuts) => {
        const parts = splitAt(sent, cuts);
        const whole = sent.equals(valid);
        const { text, closed } = await converse(whole ? [...parts, Buffer.from("x")] : parts, {
          end: !whole,
          until: (seen) => whole && seen.endsWith("echo:x"),
          ms: HEAD_TIMEOUT_MS + 3_000,
        });
        if (whole) expect(text).toBe("HTTP/1.1 200 Connection Established\r\n\r\necho:x");
        else expect(closed || /^HTTP\/1\.1 \d{3} /.test(text)).toBe(true);
      }),
      { numRuns: 80 },
    );
    // Still serving.
    const { text } = await converse([valid, Buffer.from("after")], {
      end: false,
      until: (seen) => seen.endsWith("echo:after"),
    });
    expect(text).toContain("echo:after");
  });

  it("refuses to start on a port already in use, as Node's listener does", async () => {
    await expect(startGateway(database, { httpPort: gateway.httpPort })).rejects.toThrow(
      `listen EADDRINUSE: address already in use 127.0.0.1:${gateway.httpPort}`,
    );
  });

  it("closes its connections and its listening socket with the gateway", async () => {
    const other = await startGateway(database);
    const port = other.httpPort;
    const tunnel = net.connect(port, "127.0.0.1");
    tunnel.on("error", () => {});
    let closed = false;
    tunnel.on("close", () => {
      closed = true;
    });
    tunnel.write(`${connectHead(basic(user.username, user.password))}hold`);
    await new Promise((resolve) => tunnel.once("data", resolve));
    await other.close();
    await waitFor(() => closed, "the tunnel to close with the gateway");
    const refused = await new Promise<string>((resolve) => {
      const probe = net.connect(port, "127.0.0.1");
      probe.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      probe.on("connect", () => {
        probe.destroy();
        resolve("connected");
      });
    });
    expect(refused).toBe("ECONNREFUSED");
  });
});
