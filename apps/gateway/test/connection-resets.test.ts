import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { basic, rawExchange, type SeededUser, seedUser, startGateway } from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";
import { connectFrom, openConnections, type RawClient, reset, waitFor } from "./support/raw-client.ts";

/** Whatever escapes to the process: any of it would take API, dashboard and gateway down with it
 * in `npm start` (an uncaught exception shuts the process down). */
const escaped: unknown[] = [];
const record = (error: unknown) => escaped.push(error);
/** Resets sent, by kind, for the report. */
const resets: Record<string, number> = {};
const count = (kind: string) => {
  resets[kind] = (resets[kind] ?? 0) + 1;
};

let database: TestDatabase;
/** Small caps, a long head deadline: held connections stay while the caps are tried. */
let capped: Gateway;
/** Default caps, a short head deadline: for the refusals and the resets mid-request. */
let open: Gateway;
let origin: TestOrigin;
/** Answers a request head with half a response, then resets. */
let resettingOrigin: net.Server;
let payer: SeededUser;
let broke: SeededUser;

beforeAll(async () => {
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
  database = await createTestDatabase();
  capped = await startGateway(database, { maxConnectionsPerIp: 3, maxConnections: 8, headTimeoutMs: 20_000 });
  open = await startGateway(database, { headTimeoutMs: 500 });
  origin = await startOrigin();
  resettingOrigin = net.createServer((socket) => {
    socket.on("error", () => {});
    socket.once("data", () => {
      socket.write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\npartial");
      setTimeout(() => socket.resetAndDestroy(), 5);
    });
  });
  await new Promise<void>((resolve) => resettingOrigin.listen(0, "127.0.0.1", resolve));
  payer = await seedUser(database, 1_000_000_000);
  broke = await seedUser(database, 0);
});
afterAll(async () => {
  await capped.close();
  await open.close();
  await origin.close();
  resettingOrigin.close();
  await database.close();
  process.off("uncaughtException", record);
  process.off("unhandledRejection", record);
});

const auth = (user: SeededUser) => `Proxy-Authorization: ${basic(user.username, user.password)}\r\n`;
const get = (target: string, authorization = auth(payer), path = "/") =>
  `GET http://${target}${path} HTTP/1.1\r\nHost: ${target}\r\n${authorization}\r\n`;
const originAt = () => `127.0.0.1:${origin.port}`;

/** A paying customer's kept-alive connection that has carried one request. */
async function heldConnection(gateway: Gateway, localAddress: string): Promise<RawClient> {
  const client = await connectFrom(gateway.httpPort, localAddress);
  client.socket.write(get(originAt()));
  await waitFor(() => client.state.received.includes("hello from origin"), "the held connection's answer");
  return client;
}

/** The gateway still carries a paying customer's request on both listeners. */
async function stillServes(gateway: Gateway): Promise<void> {
  for (const secure of [false, true]) {
    const port = secure ? gateway.httpsPort : gateway.httpPort;
    const response = await rawExchange(port, get(originAt()), secure);
    expect(response.status).toBe(200);
  }
}

/** Connects past a cap and resets at once, and again once the refusal (on 8080: a 503) has
 * arrived unread, as a client that drops the connection without reading does. */
async function resetAtCap(gateway: Gateway, localAddress: string, kind: string): Promise<void> {
  for (const port of [gateway.httpPort, gateway.httpsPort]) {
    for (let round = 0; round < 10; round++) {
      const early = await connectFrom(port, localAddress, { secure: true, handshake: false });
      reset(early);
      count(`${kind} cap, reset at connect`);
      const late = await connectFrom(port, localAddress, { secure: true, handshake: false });
      await waitFor(() => late.state.received.length > 0 || late.state.closed, "the refusal");
      if (port === gateway.httpPort) expect(late.state.received).toMatch(/^HTTP\/1\.1 503 /);
      reset(late);
      count(`${kind} cap, reset after the refusal`);
    }
  }
}

describe("a client's connection reset never takes the process down", () => {
  it("survives resets at the per-address cap and at the total cap, on both listeners", async () => {
    const held = [
      ...(await Promise.all(["1", "2", "3"].map(() => heldConnection(capped, "127.0.0.31")))),
      ...(await Promise.all(["1", "2", "3"].map(() => heldConnection(capped, "127.0.0.32")))),
    ];
    await resetAtCap(capped, "127.0.0.31", "per-address");
    held.push(await heldConnection(capped, "127.0.0.33"), await heldConnection(capped, "127.0.0.33"));
    expect(await openConnections(capped)).toBe(8);
    await resetAtCap(capped, "127.0.0.34", "total");
    expect(escaped).toEqual([]);
    for (const client of held) client.socket.destroy();
    await waitFor(async () => (await openConnections(capped)) === 0, "the held connections to close");
    await stillServes(capped);
  });

  it("survives resets during every refusal (407, 402, 403, 408), on both listeners", async () => {
    const refused: Record<string, string> = {
      "407": get(originAt(), ""),
      "402": get(originAt(), auth(broke)),
      "403": get("10.0.0.1:80"),
      "408": get(originAt()).slice(0, 30),
    };
    for (const secure of [false, true]) {
      const port = secure ? open.httpsPort : open.httpPort;
      for (const [status, request] of Object.entries(refused)) {
        for (let round = 0; round < 5; round++) {
          const early = await connectFrom(port, "127.0.0.41", { secure });
          early.socket.write(request);
          reset(early);
          count(`${status}, reset before the answer`);
          const late = await connectFrom(port, "127.0.0.41", { secure });
          late.socket.write(request);
          await waitFor(() => late.state.received.length > 0, `the ${status}`);
          expect(late.state.received).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
          reset(late);
          count(`${status}, reset after the answer`);
        }
      }
    }
    expect(escaped).toEqual([]);
    await stillServes(open);
  });

  it("survives resets at every point of a request with a body, on both listeners", async () => {
    const body = "x".repeat(3_000);
    const request = `POST http://${originAt()}/echo HTTP/1.1\r\nHost: ${originAt()}\r\n${auth(payer)}Content-Length: ${body.length}\r\n\r\n${body}`;
    for (const secure of [false, true]) {
      const port = secure ? open.httpsPort : open.httpPort;
      for (let offset = 0; offset <= request.length; offset += 41) {
        const client = await connectFrom(port, "127.0.0.42", { secure });
        client.socket.write(request.slice(0, offset));
        // Half the time the gateway has read (and acted on) what was sent before the reset.
        if (offset % 2 === 0) await new Promise((r) => setImmediate(r));
        else await new Promise((r) => setTimeout(r, 5));
        reset(client);
        count("mid-request");
      }
    }
    expect(escaped).toEqual([]);
    await stillServes(open);
  });

  it("survives resets in the middle of a response, of a tunnel and from the target", async () => {
    for (const secure of [false, true]) {
      const port = secure ? open.httpsPort : open.httpPort;
      for (const cutAt of [1, 10_000, 200_000, 1_000_000]) {
        const download = await connectFrom(port, "127.0.0.43", { secure });
        download.socket.write(get(originAt(), auth(payer), "/bytes/5000000"));
        await waitFor(() => download.state.received.length >= cutAt, "part of the download");
        reset(download);
        count("mid-response");

        const tunnel = await connectFrom(port, "127.0.0.43", { secure });
        tunnel.socket.write(`CONNECT ${originAt()} HTTP/1.1\r\nHost: ${originAt()}\r\n${auth(payer)}\r\n`);
        await waitFor(() => tunnel.state.received.includes("\r\n\r\n"), "the tunnel");
        tunnel.socket.write("GET /bytes/5000000 HTTP/1.1\r\nHost: origin\r\n\r\n");
        await waitFor(() => tunnel.state.received.length >= cutAt, "part of the tunnelled download");
        reset(tunnel);
        count("mid-tunnel, download");

        const upload = await connectFrom(port, "127.0.0.43", { secure });
        upload.socket.write(`CONNECT ${originAt()} HTTP/1.1\r\nHost: ${originAt()}\r\n${auth(payer)}\r\n`);
        await waitFor(() => upload.state.received.includes("\r\n\r\n"), "the tunnel");
        upload.socket.write("POST /digest HTTP/1.1\r\nHost: origin\r\nContent-Length: 5000000\r\n\r\n");
        upload.socket.write(Buffer.alloc(cutAt, 1));
        await new Promise((r) => setTimeout(r, 5));
        reset(upload);
        count("mid-tunnel, upload");
      }
      const resetting = `127.0.0.1:${(resettingOrigin.address() as net.AddressInfo).port}`;
      const plain = await rawExchange(port, get(resetting), secure).catch(() => null);
      expect(plain?.status ?? 200).toBe(200);
      count("target reset mid-response");
      const tunnel = await connectFrom(port, "127.0.0.43", { secure });
      tunnel.socket.write(`CONNECT ${resetting} HTTP/1.1\r\nHost: ${resetting}\r\n${auth(payer)}\r\n`);
      await waitFor(() => tunnel.state.received.includes("\r\n\r\n"), "the tunnel");
      tunnel.socket.write("GET / HTTP/1.1\r\nHost: origin\r\n\r\n");
      await waitFor(() => tunnel.state.closed, "the tunnel to be cut by the target's reset");
      count("target reset mid-tunnel");
    }
    expect(escaped).toEqual([]);
    await stillServes(open);
    console.info("connection resets survived:", resets);
  });
});
