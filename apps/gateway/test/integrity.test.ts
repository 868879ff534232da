import net from "node:net";
import tls from "node:tls";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { ProxyAgent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayUnderTest, gatewayModes } from "./support/gateway-modes.ts";
import { basic, openTunnel, type SeededUser, seedUser, testCertificate } from "./support/harness.ts";
import { randomBody, sha256, startOrigin, type TestOrigin } from "./support/origin.ts";

/**
 * Bodies arrive unchanged, byte for byte, on every path. The relay reads target sockets into one
 * shared buffer (decision 002); a span written from it after the next read overwrote it would
 * keep the length right and the metering exact, and only a digest of a non-repeating body shows
 * it. The slow readers make the gateway's writes queue, where that would happen. Run against the
 * gateway in this process and, on PostgreSQL, against the standalone gateway with two workers.
 */
const DOWNLOAD = 12_000_000;
const UPLOAD = 6_000_000;

let plainOrigin: TestOrigin;
let tlsOrigin: TestOrigin;
const expected = sha256(randomBody(DOWNLOAD));

beforeAll(async () => {
  plainOrigin = await startOrigin();
  tlsOrigin = await startOrigin(await testCertificate());
});
afterAll(async () => {
  await plainOrigin?.close();
  await tlsOrigin?.close();
});

async function digestOf(response: Awaited<ReturnType<typeof request>>): Promise<string> {
  expect(response.statusCode).toBe(200);
  return sha256(Buffer.from(await response.body.arrayBuffer()));
}

/** Sends `request` on `socket` and reads the response like a slow client. Resolves with the body
 * once Content-Length bytes arrived. */
function slowGet(socket: net.Socket, requestText: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    let bodyLength = -1;
    let chunks = 0;
    const body: Buffer[] = [];
    let received = 0;
    socket.on("error", reject);
    socket.on("data", (chunk: Buffer) => {
      if (bodyLength < 0) {
        buffered = Buffer.concat([buffered, chunk]);
        const end = buffered.indexOf("\r\n\r\n");
        if (end === -1) return;
        const head = buffered.subarray(0, end).toString("latin1");
        bodyLength = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? -1);
        if (!head.startsWith("HTTP/1.1 200") || bodyLength < 0) return reject(new Error(head));
        chunk = buffered.subarray(end + 4);
      }
      body.push(Buffer.from(chunk));
      received += chunk.length;
      if (received >= bodyLength) {
        socket.destroy();
        resolve(Buffer.concat(body).subarray(0, bodyLength));
        return;
      }
      // A long stall first, so the kernel's buffers fill and the gateway's writes queue; then
      // short ones, so they keep queueing and draining.
      chunks += 1;
      if (chunks === 1 || chunks % 2 === 0) {
        socket.pause();
        setTimeout(() => socket.resume(), chunks === 1 ? 300 : 1);
      }
    });
    socket.write(requestText);
  });
}

for (const mode of gatewayModes) {
  describe.skipIf(mode.skip)(`bodies pass through unchanged (${mode.name})`, () => {
    let database: TestDatabase;
    let gateway: GatewayUnderTest;
    let user: SeededUser;
    beforeAll(async () => {
      database = await createTestDatabase();
      gateway = await mode.start(database);
      user = await seedUser(database, 1e12);
    }, 60_000);
    afterAll(async () => {
      await gateway?.close();
      await database?.close();
    });
    const authorization = () => basic(user.username, user.password);

    it.each([
      ["over plain HTTP on 8080", "http", false, false],
      ["through a CONNECT tunnel on 8080 (TLS to the origin inside)", "http", true, true],
      ["over plain HTTP inside the gateway's TLS on 8443", "https", false, false],
    ] as const)("%s", async (_name, proxy, tunnel, secureOrigin) => {
      const agent = new ProxyAgent({
        uri: `${proxy}://127.0.0.1:${proxy === "https" ? gateway.httpsPort : gateway.httpPort}`,
        token: authorization(),
        proxyTunnel: tunnel,
        proxyTls: { rejectUnauthorized: false },
        requestTls: { rejectUnauthorized: false },
      });
      const origin = secureOrigin
        ? `https://127.0.0.1:${tlsOrigin.port}`
        : `http://127.0.0.1:${plainOrigin.port}`;
      try {
        const response = await request(`${origin}/random/${DOWNLOAD}`, { dispatcher: agent });
        expect(await digestOf(response)).toBe(expected);
      } finally {
        await agent.close();
      }
    });

    it("to a slow reader over plain HTTP on 8080", async () => {
      const socket = net.connect(gateway.httpPort, "127.0.0.1");
      const body = await slowGet(
        socket,
        `GET http://127.0.0.1:${plainOrigin.port}/random/${DOWNLOAD} HTTP/1.1\r\nHost: 127.0.0.1:${plainOrigin.port}\r\n` +
          `Proxy-Authorization: ${authorization()}\r\nConnection: close\r\n\r\n`,
      );
      expect(sha256(body)).toBe(expected);
    });

    it("to a slow reader through a CONNECT tunnel on 8080", async () => {
      const socket = await openTunnel(gateway.httpPort, authorization(), `127.0.0.1:${plainOrigin.port}`);
      const body = await slowGet(
        socket,
        `GET /random/${DOWNLOAD} HTTP/1.1\r\nHost: origin\r\nConnection: close\r\n\r\n`,
      );
      expect(sha256(body)).toBe(expected);
    });

    it("to a slow reader over plain HTTP inside the gateway's TLS on 8443", async () => {
      const socket = tls.connect({ host: "127.0.0.1", port: gateway.httpsPort, rejectUnauthorized: false });
      await new Promise<void>((resolve, reject) => {
        socket.once("secureConnect", resolve);
        socket.once("error", reject);
      });
      const body = await slowGet(
        socket,
        `GET http://127.0.0.1:${plainOrigin.port}/random/${DOWNLOAD} HTTP/1.1\r\nHost: 127.0.0.1:${plainOrigin.port}\r\n` +
          `Proxy-Authorization: ${authorization()}\r\nConnection: close\r\n\r\n`,
      );
      expect(sha256(body)).toBe(expected);
    });

    it("to four readers at once inside the gateway's TLS on 8443: plain and CONNECT, fast and slow", async () => {
      // Reads written to TLS sockets leave the shared buffer and come back for reuse once the write
      // completed: concurrent writers to different TLS sockets must never get each other's bytes.
      const agent = (tunnel: boolean) =>
        new ProxyAgent({
          uri: `https://127.0.0.1:${gateway.httpsPort}`,
          token: authorization(),
          proxyTunnel: tunnel,
          proxyTls: { rejectUnauthorized: false },
        });
      const agents = [agent(false), agent(true)];
      const slow = tls.connect({ host: "127.0.0.1", port: gateway.httpsPort, rejectUnauthorized: false });
      try {
        await new Promise<void>((resolve, reject) => {
          slow.once("secureConnect", resolve);
          slow.once("error", reject);
        });
        const fast = agents.flatMap((dispatcher) =>
          [0, 1].map(async () =>
            digestOf(
              await request(`http://127.0.0.1:${plainOrigin.port}/random/${DOWNLOAD}`, { dispatcher }),
            ),
          ),
        );
        const slowBody = slowGet(
          slow,
          `GET http://127.0.0.1:${plainOrigin.port}/random/${DOWNLOAD} HTTP/1.1\r\nHost: 127.0.0.1:${plainOrigin.port}\r\n` +
            `Proxy-Authorization: ${authorization()}\r\nConnection: close\r\n\r\n`,
        );
        expect(await Promise.all(fast)).toEqual([expected, expected, expected, expected]);
        expect(sha256(await slowBody)).toBe(expected);
      } finally {
        slow.destroy();
        for (const dispatcher of agents) await dispatcher.close();
      }
    });

    it("on the way up: a request body over plain HTTP and through a tunnel", async () => {
      const upload = randomBody(UPLOAD, 12_345);
      const want = `${UPLOAD} ${sha256(upload)}`;
      const plain = new ProxyAgent({
        uri: `http://127.0.0.1:${gateway.httpPort}`,
        token: authorization(),
        proxyTunnel: false,
      });
      const tunnel = new ProxyAgent({
        uri: `http://127.0.0.1:${gateway.httpPort}`,
        token: authorization(),
        requestTls: { rejectUnauthorized: false },
      });
      try {
        for (const [url, dispatcher] of [
          [`http://127.0.0.1:${plainOrigin.port}/digest`, plain],
          [`https://127.0.0.1:${tlsOrigin.port}/digest`, tunnel],
        ] as const) {
          const response = await request(url, { dispatcher, method: "POST", body: upload });
          expect(response.statusCode).toBe(200);
          expect(await response.body.text()).toBe(want);
        }
      } finally {
        await plain.close();
        await tunnel.close();
      }
    });

    it.skipIf(mode.workers < 2)("every worker carried some of it", async () => {
      // Handed connections in turn: each carried whole bodies above.
      const metered = await gateway.meteredByWorker();
      expect(metered).toHaveLength(mode.workers);
      for (const bytes of metered) expect(bytes).toBeGreaterThanOrEqual(DOWNLOAD);
    });
  });
}
