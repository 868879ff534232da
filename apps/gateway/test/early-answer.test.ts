import { mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { basic, curl, rawExchange, type SeededUser, seedUser, startGateway } from "./support/harness.ts";
import { connectFrom, openConnections, waitFor } from "./support/raw-client.ts";

const UPLOAD_BYTES = 10 * 1024 * 1024;
/** Small, so that connections the gateway failed to close would lock the address out quickly. */
const PER_IP = 20;

let database: TestDatabase;
let gateway: Gateway;
let user: SeededUser;
let workDir: string;
/** A target that answers 401 as soon as it has a request head, never reads the body and never
 * closes: what an origin checking credentials before an upload does, at its worst. */
let origin: net.Server;
const originSockets = new Set<net.Socket>();
let target: string;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startGateway(database, { maxConnectionsPerIp: PER_IP });
  user = await seedUser(database, 10_000_000_000);
  workDir = await mkdtemp(join(tmpdir(), "early-answer-"));
  origin = net.createServer((socket) => {
    originSockets.add(socket);
    socket.once("close", () => originSockets.delete(socket));
    socket.on("error", () => {});
    let head = "";
    const onData = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      socket.removeListener("data", onData);
      socket.pause();
      // The warm-up GET is answered once and not kept (this origin reads one head per connection).
      const close = head.startsWith("GET") ? "Connection: close\r\n" : "";
      socket.write(`HTTP/1.1 401 Unauthorized\r\nContent-Length: 12\r\n${close}\r\nunauthorized`);
    };
    socket.on("data", onData);
  });
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  target = `127.0.0.1:${(origin.address() as net.AddressInfo).port}`;
  // The account's first lookup (and byte lease) is not what the timings below are about.
  const warmUp = await rawExchange(
    gateway.httpPort,
    `GET http://${target}/ HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`,
  );
  expect(warmUp.status).toBe(401);
});
afterAll(async () => {
  await gateway.close();
  for (const socket of originSockets) socket.destroy();
  origin.close();
  await rm(workDir, { recursive: true, force: true });
  await database.close();
});

/** The open-connection gauge once the connections of earlier tests have finished closing. */
async function settledConnections(): Promise<number> {
  await waitFor(async () => (await openConnections(gateway)) === 0, "earlier connections to close");
  return 0;
}

const uploadHead = () =>
  `POST http://${target}/upload HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\nContent-Length: ${UPLOAD_BYTES}\r\n\r\n`;

/** Sends the head, then the body as fast as the gateway takes it, until the answer arrives or
 * the whole body is sent; resolves with the milliseconds until the answer. */
async function upload(localAddress: string) {
  const client = await connectFrom(gateway.httpPort, localAddress);
  const startedAt = performance.now();
  let answeredAfterMs = Number.NaN;
  client.socket.write(uploadHead());
  const piece = Buffer.alloc(64 * 1024, 120);
  let sent = 0;
  const answered = () => client.state.received.includes("\r\n\r\nunauthorized");
  while (sent < UPLOAD_BYTES && !answered() && !client.state.closed) {
    sent += piece.length;
    if (!client.socket.write(piece))
      await new Promise((resolve) => {
        client.socket.once("drain", resolve);
        client.socket.once("close", resolve);
        setTimeout(resolve, 20);
      });
  }
  await waitFor(answered, "the early answer", 5_000);
  answeredAfterMs = performance.now() - startedAt;
  return { client, answeredAfterMs, sent };
}

describe("a target that answers an upload before reading it", () => {
  it("gets its answer to the client at once, and the connection is closed, not left half-open", async () => {
    const baseline = await settledConnections();
    const { client, answeredAfterMs } = await upload("127.0.0.51");
    expect(answeredAfterMs).toBeLessThan(1_000);
    expect(client.state.received).toMatch(/^HTTP\/1\.1 401 /);
    expect(client.state.received).toMatch(/\r\nConnection: close\r\n/i);
    // The client neither reads on nor closes: the gateway still ends the connection, and its
    // count falls back.
    await waitFor(() => client.state.closed, "the gateway to close the connection", 10_000);
    await waitFor(async () => (await openConnections(gateway)) === baseline, "the open-connection gauge");
    console.info(`early answer: ${answeredAfterMs.toFixed(1)} ms after the upload began`);
  });

  it("gets curl its 401 within a second, with and without Expect: 100-continue", async () => {
    const file = join(workDir, "upload.bin");
    await writeFile(file, Buffer.alloc(UPLOAD_BYTES, 120));
    for (const expect100 of [true, false]) {
      const startedAt = performance.now();
      const result = await curl([
        "-x",
        `http://127.0.0.1:${gateway.httpPort}`,
        "-U",
        `${user.username}:${user.password}`,
        ...(expect100 ? [] : ["-H", "Expect:"]),
        "--data-binary",
        `@${file}`,
        `http://${target}/upload`,
      ]);
      const tookMs = performance.now() - startedAt;
      expect(result.status).toBe(401);
      expect(tookMs).toBeLessThan(1_000);
      console.info(`curl ${expect100 ? "with" : "without"} Expect: 401 in ${tookMs.toFixed(1)} ms`);
    }
  });

  it("leaks no connection: 300 early answers from one address never lock it out", async () => {
    const baseline = await settledConnections();
    let slowest = 0;
    for (let round = 0; round < 300; round++) {
      const { client, answeredAfterMs } = await upload("127.0.0.52");
      expect(client.state.received, `upload ${round}`).toMatch(/^HTTP\/1\.1 401 /);
      slowest = Math.max(slowest, answeredAfterMs);
      // As a client that has its answer does: it closes its side.
      client.socket.end();
      await waitFor(() => client.state.closed, "the connection to close");
    }
    await waitFor(async () => (await openConnections(gateway)) === baseline, "the open-connection gauge");
    console.info(`300 early answers, slowest ${slowest.toFixed(1)} ms`);
    expect(slowest).toBeLessThan(1_000);
  });
});
