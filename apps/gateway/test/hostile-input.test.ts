import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { basic, rawExchange, type SeededUser, seedUser, startGateway } from "./support/harness.ts";

/** An origin that keeps every byte it receives, to prove what was (not) forwarded. */
async function startRecordingOrigin() {
  let received = "";
  const server = net.createServer((socket) => {
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let database: TestDatabase;
let gateway: Gateway;
let origin: Awaited<ReturnType<typeof startRecordingOrigin>>;
let user: SeededUser;
/** Everything the gateway logs at warn or above. */
const logged: string[] = [];
const logger = pino({ level: "warn" }, { write: (line: string) => logged.push(line) });

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startGateway(database, {}, logger);
  origin = await startRecordingOrigin();
  user = await seedUser(database, 1_000_000);
});
afterAll(async () => {
  await gateway.close();
  await origin.close();
  await database.close();
});

describe("usernames with control characters", () => {
  it("answers 407 bad_credentials on HTTP and CONNECT", async () => {
    for (const name of [`${user.username}\u0000`, "a\u0000b", "x\u0001y", "tab\there", "del\u007f"]) {
      const authorization = `Basic ${Buffer.from(`${name}:${user.password}`).toString("base64")}`;
      const target = `127.0.0.1:${origin.port}`;
      for (const head of [
        `GET http://${target}/ HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${authorization}\r\n\r\n`,
        `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${authorization}\r\n\r\n`,
      ]) {
        const response = await rawExchange(gateway.httpPort, head);
        expect(response.status, JSON.stringify(name)).toBe(407);
        expect(response.headers["x-bytetoll-error"]).toBe("bad_credentials");
      }
    }
    expect(logged).toEqual([]);
  });
});

describe("chunk extensions", () => {
  const send = (sizeLine: string) =>
    rawExchange(
      gateway.httpPort,
      `POST http://127.0.0.1:${origin.port}/upload HTTP/1.1\r\nHost: x\r\n` +
        `Proxy-Authorization: ${basic(user.username, user.password)}\r\nTransfer-Encoding: chunked\r\n\r\n` +
        `${sizeLine}\r\nhello\r\n0\r\n\r\n`,
    );

  it("refuses a bare LF or a control character in a chunk extension with 400, forwarding nothing of it", async () => {
    for (const sizeLine of ["5;ext\nSMUGGLED", "5;a\u0001b", '5;name="q\u0000"', "5;\u007f"]) {
      const response = await send(sizeLine);
      expect(response.status, JSON.stringify(sizeLine)).toBe(400);
      expect(response.headers["x-bytetoll-error"]).toBe("bad_request");
    }
    expect(origin.received()).not.toContain("SMUGGLED");
    expect(origin.received()).not.toContain("hello");
    expect(origin.received()).not.toMatch(/5;/);
  });
});
