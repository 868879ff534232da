import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import {
  basic,
  openTunnel,
  type SeededUser,
  seedUser,
  socketsTo,
  startGateway,
  until,
} from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";

const PER_IP = 5;
const HEAD_TIMEOUT_MS = 1_500;

let database: TestDatabase;
let gateway: Gateway;
let origin: TestOrigin;
let user: SeededUser;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startGateway(database, { maxConnectionsPerIp: PER_IP, headTimeoutMs: HEAD_TIMEOUT_MS });
  origin = await startOrigin();
  user = await seedUser(database, 10_000_000);
});
afterAll(async () => {
  await gateway.close();
  await origin.close();
  await database.close();
});

/** A connection from a chosen loopback address, with everything it receives. */
async function connectFrom(localAddress: string, port = gateway.httpPort) {
  const socket = net.connect({ port, host: "127.0.0.1", localAddress });
  const state = { received: "", closed: false };
  socket.on("data", (chunk: Buffer) => {
    state.received += chunk.toString("latin1");
  });
  socket.on("close", () => {
    state.closed = true;
  });
  socket.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return { socket, state };
}

function plainGet(target: string): string {
  return `GET http://${target}/ HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${basic(user.username, user.password)}\r\n\r\n`;
}

describe("connection limits", () => {
  it("turns away connections past the per-address cap with 503, while another client is served", async () => {
    const held = await Promise.all(Array.from({ length: PER_IP }, () => connectFrom("127.0.0.3")));
    const refused = await connectFrom("127.0.0.3");
    await until(() => refused.state.closed, "the refused connection to close");
    expect(refused.state.received).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused.state.received).toContain("X-ByteToll-Error: too_many_connections");
    // Over TLS the refusal can only be a close before the handshake.
    const refusedTls = await connectFrom("127.0.0.3", gateway.httpsPort);
    await until(() => refusedTls.state.closed, "the refused TLS connection to close");

    const other = await connectFrom("127.0.0.4");
    other.socket.write(plainGet(`127.0.0.1:${origin.port}`));
    await until(() => other.state.received.includes("hello from origin"), "the other client's answer");
    other.socket.destroy();

    // A held connection still works, and closing one frees its place.
    const first = held[0] as (typeof held)[number];
    first.socket.write(plainGet(`127.0.0.1:${origin.port}`));
    await until(() => first.state.received.includes("hello from origin"), "a held connection's answer");
    const firstPort = first.socket.localPort as number;
    first.socket.destroy();
    // The gateway's side of it is closed (its socket whose far end is that client's port).
    await until(() => socketsTo(firstPort) === 0, "the gateway to close the held connection");
    const again = await connectFrom("127.0.0.3");
    again.socket.write(plainGet(`127.0.0.1:${origin.port}`));
    await until(() => again.state.received.includes("hello from origin"), "a freed place's answer");
    for (const connection of [...held, again]) connection.socket.destroy();
  });

  it("answers a SOCKS5 client past the cap with a method selection failure before closing", async () => {
    const socksPort = gateway.socksPort as number;
    // An address of its own: the tests after it must not find its places still taken.
    const held = await Promise.all(Array.from({ length: PER_IP }, () => connectFrom("127.0.0.8", socksPort)));
    const refused = await connectFrom("127.0.0.8", socksPort);
    // The greeting of a client offering user/password: it is told no method is acceptable (the
    // reason clients print), where it used to see the connection simply close.
    refused.socket.write(Buffer.from([0x05, 0x01, 0x02]));
    await until(() => refused.state.closed, "the refused connection to close");
    expect(Buffer.from(refused.state.received, "latin1")).toEqual(Buffer.from([0x05, 0xff]));
    for (const connection of held) connection.socket.destroy();
  });
});

describe("request head deadline", () => {
  it("cuts a client that sends its head one byte at a time with 408, however active it looks", async () => {
    const slow = await connectFrom("127.0.0.5");
    const head = plainGet(`127.0.0.1:${origin.port}`);
    const startedAt = Date.now();
    let sent = 0;
    const drip = setInterval(() => {
      if (!slow.state.closed && sent < head.length) slow.socket.write(head[sent++] as string);
    }, 100);
    try {
      await until(() => slow.state.closed, "the slow connection to be cut");
    } finally {
      clearInterval(drip);
    }
    expect(sent).toBeLessThan(head.length);
    expect(Date.now() - startedAt).toBeLessThan(HEAD_TIMEOUT_MS + 1_000);
    expect(slow.state.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(slow.state.received).toContain("X-ByteToll-Error: request_timeout");
  });

  it("gives a kept-alive connection's next head its own deadline, from its first byte", async () => {
    const client = await connectFrom("127.0.0.7");
    client.socket.write(plainGet(`127.0.0.1:${origin.port}`));
    await until(() => client.state.received.includes("hello from origin"), "the first answer");
    // Idle past the point where the first head's deadline would have been: not cut for that.
    await new Promise((r) => setTimeout(r, HEAD_TIMEOUT_MS + 300));
    expect(client.state.closed).toBe(false);
    client.socket.write(plainGet(`127.0.0.1:${origin.port}`));
    await until(() => client.state.received.split("hello from origin").length === 3, "the second answer");
    // A third head trickles in a while later (the second head's deadline falls inside it): it is
    // cut a whole deadline after its first byte, not earlier.
    await new Promise((r) => setTimeout(r, HEAD_TIMEOUT_MS / 2));
    const received = client.state.received.length;
    const head = plainGet(`127.0.0.1:${origin.port}`);
    const startedAt = Date.now();
    let sent = 0;
    const drip = setInterval(() => {
      if (!client.state.closed && sent < head.length) client.socket.write(head[sent++] as string);
    }, 100);
    try {
      await new Promise((r) => setTimeout(r, HEAD_TIMEOUT_MS - 300));
      expect(client.state.closed).toBe(false);
      await until(() => client.state.closed, "the trickling connection to be cut");
    } finally {
      clearInterval(drip);
    }
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(HEAD_TIMEOUT_MS - 100);
    expect(client.state.received.slice(received)).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("cuts a connection that never sends anything, on both listeners", async () => {
    const silent = await connectFrom("127.0.0.6");
    const tlsSilent = await connectFrom("127.0.0.6", gateway.httpsPort);
    await until(() => tlsSilent.state.closed, "the silent TLS connection to be cut");
    expect(silent.state.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("leaves an established tunnel alone past the deadline", async () => {
    const tunnel = await openTunnel(
      gateway.httpPort,
      basic(user.username, user.password),
      `127.0.0.1:${origin.port}`,
    );
    await new Promise((r) => setTimeout(r, HEAD_TIMEOUT_MS + 500));
    let received = "";
    tunnel.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
    });
    tunnel.write(`GET / HTTP/1.1\r\nHost: origin\r\n\r\n`);
    await until(() => received.includes("hello from origin"), "an answer through the old tunnel");
    tunnel.destroy();
  });
});
