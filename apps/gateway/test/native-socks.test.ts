import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { defaultGatewayConfig } from "@bytetoll/egress";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nativeFrontDoorAddon } from "../src/front/native-listen.ts";
import type { Gateway } from "../src/gateway.ts";
import { type SeededUser, seedUser, startGateway } from "./support/harness.ts";
import { type ConverseOptions, converseWith, splitAt, startEchoOrigin } from "./support/raw-client.ts";
import { connectV4, greeting, userPass } from "./support/socks-bytes.ts";

/**
 * The SOCKS5 port accepted by the splice addon: the handshake (greeting, username and password,
 * request) is read and answered on the bare descriptor, the tunnel spliced with no Node socket on
 * either side. A client must see what Node's listener gave it: the same answers for any split of
 * the handshake, the same refusals, and for any bytes an answer or a close, never a hang.
 */

const HEAD_TIMEOUT_MS = 1_000;
const native =
  nativeFrontDoorAddon({ ...defaultGatewayConfig, host: "127.0.0.1", splice: "auto" }, "socks") !== null;

let database: TestDatabase;
let gateway: Gateway;
let user: SeededUser;
/** Answers each chunk with "echo:" and the chunk. */
let origin: net.Server;

const converse = (parts: Buffer[], options?: ConverseOptions) =>
  converseWith(gateway.socksPort as number, parts, options);

/** The gateway's answers to a handshake it accepts: the method, the status, the success reply. */
const ACCEPTED = [5, 2, 1, 0, 5, 0, 0, 1];
const latin1 = (bytes: number[]) => Buffer.from(bytes).toString("latin1");

describe.skipIf(!native)("the native front door on the SOCKS5 port", () => {
  let handshake: Buffer;

  beforeAll(async () => {
    database = await createTestDatabase();
    origin = await startEchoOrigin();
    gateway = await startGateway(database, { headTimeoutMs: HEAD_TIMEOUT_MS, egressAllow: ["127.0.0.0/8"] });
    user = await seedUser(database, 1e9);
    const originPort = (origin.address() as net.AddressInfo).port;
    handshake = Buffer.concat([
      greeting,
      userPass(user.username, user.password),
      connectV4([127, 0, 0, 1], originPort),
    ]);
  });
  afterAll(async () => {
    await gateway?.close();
    await new Promise((resolve) => origin?.close(resolve));
    await database?.close();
  });

  it("is the addon's listener, not a Node server", () => {
    const servers = (process as unknown as { _getActiveHandles(): unknown[] })
      ._getActiveHandles()
      .filter((handle): handle is net.Server => handle instanceof net.Server && handle.listening)
      .map((server) => (server.address() as net.AddressInfo | null)?.port);
    expect(gateway.socksPort).toBeGreaterThan(0);
    expect(servers).not.toContain(gateway.socksPort);
  });

  it("tunnels for a handshake sent whole, message by message, or byte by byte, on its port and on 8080", async () => {
    const bytes = [...handshake].map((byte) => Buffer.from([byte]));
    for (const parts of [
      [handshake],
      [greeting, handshake.subarray(3, -10), handshake.subarray(-10)],
      bytes,
    ]) {
      const { text } = await converse([...parts, Buffer.from("ping")], {
        end: false,
        until: (seen) => seen.endsWith("echo:ping"),
      });
      expect(text.startsWith(latin1(ACCEPTED))).toBe(true);
      expect(text.endsWith("echo:ping")).toBe(true);
    }
    // A SOCKS5 greeting on the HTTP port is served the same way.
    const { text } = await converseWith(
      gateway.httpPort,
      [greeting, handshake.subarray(3), Buffer.from("ping")],
      {
        end: false,
        until: (seen) => seen.endsWith("echo:ping"),
      },
    );
    expect(text.startsWith(latin1(ACCEPTED))).toBe(true);
  });

  it("refuses a wrong password with status 1 and closes; closes a silent client at the deadline", async () => {
    const wrong = await converse([greeting, userPass(user.username, "not-the-password")], { end: false });
    expect(wrong).toEqual({ text: latin1([5, 2, 1, 1]), closed: true });
    const started = Date.now();
    const silent = await converse([], { end: false, ms: HEAD_TIMEOUT_MS + 3_000 });
    expect(silent).toEqual({ text: "", closed: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(HEAD_TIMEOUT_MS - 50);
  });

  it("for any bytes in any splits, answers or closes — never a hang or a crash — and a valid handshake is a tunnel", async () => {
    const fragments = [greeting, Buffer.from([5, 1, 0]), Buffer.from([5, 2, 0, 2]), Buffer.from([1, 0, 0])];
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 64 }).map((array) => Buffer.from(array)),
      fc.array(fc.constantFrom(...fragments), { maxLength: 6 }).map((parts) => Buffer.concat(parts)),
      fc.nat(handshake.length).map((cut) => handshake.subarray(0, cut)),
      fc.constant(handshake),
    );
    await fc.assert(
      fc.asyncProperty(bytes, fc.array(fc.nat(64), { maxLength: 4 }), async (sent, cuts) => {
        const parts = splitAt(sent, cuts);
        const whole = sent.equals(handshake);
        const { text, closed } = await converse(whole ? [...parts, Buffer.from("x")] : parts, {
          end: !whole,
          until: (seen) => whole && seen.endsWith("echo:x"),
          ms: HEAD_TIMEOUT_MS + 3_000,
        });
        if (whole) expect(text).toBe(`${latin1(ACCEPTED)}${text.slice(ACCEPTED.length, -6)}echo:x`);
        else expect(closed).toBe(true);
      }),
      { numRuns: 80 },
    );
    const { text } = await converse([handshake, Buffer.from("after")], {
      end: false,
      until: (seen) => seen.endsWith("echo:after"),
    });
    expect(text.endsWith("echo:after")).toBe(true);
  });
});
